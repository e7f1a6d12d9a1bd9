"""The verifiable shuffle (RULES.md section 9)."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from typing import TypeVar

from .cards import PACK_SIZE, Card

T = TypeVar("T")

_TWO64 = 1 << 64


def new_seed() -> str:
    """Return a fresh seed for an online game: 64 hex digits from ``secrets``."""
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    """Return the SHA-256 of the seed's UTF-8 bytes, lowercase hex (64 chars)."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


class Words:
    """The stream of random words ``w(k)`` for one seed (RULES.md 9).

    :meth:`word` draws ``w(k)`` and moves the counter ``k`` on by one;
    :meth:`uniform` draws a number in ``0..m-1`` by rejection, as rule 9 fixes it.
    """

    __slots__ = ("_k", "_seed")

    def __init__(self, seed: str) -> None:
        self._seed = seed.encode("utf-8")
        self._k = 0

    @property
    def counter(self) -> int:
        """The counter ``k`` of the next word: how many words were drawn so far."""
        return self._k

    def word(self) -> int:
        """Draw ``w(k)``: the first 8 bytes, big-endian, of ``SHA-256(seed || k)``."""
        digest = hashlib.sha256(self._seed + self._k.to_bytes(8, "big")).digest()
        self._k += 1
        return int.from_bytes(digest[:8], "big")

    def uniform(self, m: int) -> int:
        """Draw a number in ``0..m-1`` (``m >= 1``); a word at or over the bound is drawn again."""
        bound = _TWO64 - (_TWO64 % m)
        while True:
            w = self.word()
            if w < bound:
                return w % m


def _shuffle(words: Words) -> list[Card]:
    """Fisher-Yates over the fresh pack with ``words`` (RULES.md section 9)."""
    deck = [Card(c) for c in range(PACK_SIZE)]
    for i in range(PACK_SIZE - 1, 0, -1):
        j = words.uniform(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def shuffled_deck(seed: str) -> list[Card]:
    """Return the 52-card pack shuffled by ``seed``, top card first.

    Fisher-Yates from position 51 down to 1 with ``uniform(i + 1)`` draws,
    exactly as RULES.md section 9 fixes it.
    """
    return _shuffle(Words(seed))


def seating(seed: str | None, players: int) -> list[int]:
    """Return who sits where for a game shuffled by ``seed`` (RULES.md 9, Seating).

    The random words go on from where the shuffle of the pack left them
    (the counter ``k`` after the 51 swaps, rejected draws included): from
    ``[0, 1, ..., players - 1]``, for ``i`` from ``players - 1`` down to 1,
    swap positions ``i`` and ``uniform(i + 1)``.

    Without a seed (a deck or hands given as they are, as ``cardwar play
    --deck``/``--hands`` and the test decks do) nobody is drawn to a seat:
    the seating is the identity ``[0, 1, ..., players - 1]``.

    Args:
        seed: the game's seed (its UTF-8 bytes are used, as for the shuffle),
            or None.
        players: the number of players, lobby positions ``0..players-1``
            (the creator is 0; computer seats count like players).

    Returns:
        A list of length ``players``: item ``s`` is the lobby position of the
        player at table seat ``s``. Seed ``"peace"`` with 3 players gives
        ``[1, 2, 0]``: the creator (lobby position 0) sits at table seat 2.

    Raises:
        ValueError: ``players`` is below 1.
    """
    if players < 1:
        raise ValueError(f"cannot seat {players} players")
    if seed is None:
        return list(range(players))
    words = Words(seed)
    _shuffle(words)
    return _draw_seating(words, players)


def words_after_seating(seed: str, players: int) -> Words:
    """The seed's random words from where the seating draw left them (RULES.md 9, 11.8).

    The shuffle of the pack and the seating of ``players`` draw first (as
    :func:`shuffled_deck` and :func:`seating` do); the stream goes on from
    there, so anything else a game draws from its seed (the slap games'
    computer players) never reuses a word of the deal.

    Raises:
        ValueError: ``players`` is below 1.
    """
    if players < 1:
        raise ValueError(f"cannot seat {players} players")
    words = Words(seed)
    _shuffle(words)
    _draw_seating(words, players)
    return words


def _draw_seating(words: Words, players: int) -> list[int]:
    order = list(range(players))
    for i in range(players - 1, 0, -1):
        j = words.uniform(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def seated(order: Sequence[int], lobby: Sequence[T]) -> list[T]:
    """Put ``lobby`` (anything listed by lobby position) in table-seat order.

    ``order`` is a :func:`seating` (table seat -> lobby position); item ``s``
    of the result is ``lobby[order[s]]``: ``seated([1, 0], ["Ann", "Bob"])``
    is ``["Bob", "Ann"]``, Bob plays table seat 0.

    Raises:
        ValueError: ``order`` is not a permutation of ``range(len(lobby))``.
    """
    if sorted(order) != list(range(len(lobby))):
        raise ValueError(f"{list(order)} is not a seating of {len(lobby)} players")
    return [lobby[p] for p in order]
