"""The verifiable shuffle (RULES.md section 9)."""

from __future__ import annotations

import hashlib
import secrets

from .cards import PACK_SIZE, Card

_TWO64 = 1 << 64


def new_seed() -> str:
    """Return a fresh seed for an online game: 64 hex digits from ``secrets``."""
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    """Return the SHA-256 of the seed's UTF-8 bytes, lowercase hex (64 chars)."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


class _Words:
    """The stream of random words ``w(k)`` for one seed."""

    __slots__ = ("_seed", "_k")

    def __init__(self, seed: str) -> None:
        self._seed = seed.encode("utf-8")
        self._k = 0

    def word(self) -> int:
        digest = hashlib.sha256(self._seed + self._k.to_bytes(8, "big")).digest()
        self._k += 1
        return int.from_bytes(digest[:8], "big")

    def uniform(self, m: int) -> int:
        bound = _TWO64 - (_TWO64 % m)
        while True:
            w = self.word()
            if w < bound:
                return w % m


def shuffled_deck(seed: str) -> list[Card]:
    """Return the 52-card pack shuffled by ``seed``, top card first.

    Fisher-Yates from position 51 down to 1 with ``uniform(i + 1)`` draws,
    exactly as RULES.md section 9 fixes it.
    """
    deck = [Card(c) for c in range(PACK_SIZE)]
    words = _Words(seed)
    for i in range(PACK_SIZE - 1, 0, -1):
        j = words.uniform(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck
