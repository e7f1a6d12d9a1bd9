"""Beggar-my-neighbour deals and records (RULES.md section 10).

Deals: :class:`BeggarSetup` from a seed (RULES.md 9 and 3), a deck, or two
hands given as cards or in the records' notation (:func:`parse_beggar_hands`).

A hand in notation is any number of symbols, top card first, ``-`` for a
plain card and ``J Q K A`` for a court card of any suit (case-insensitive;
spaces inside a hand are ignored): the published records' deals are 26 a
hand, puzzles and exercises use short ones (``--J- / K-J-``). A deal in
notation holds at most one pack: 4 of each court card and 36 plain cards; a
deck in notation (:func:`parse_beggar_deck`) is a whole pack, 52 symbols
dealt by RULES.md 3, 26 a hand. So that logs can name cards, a deal in notation is
given cards deterministically, reading seat 0's hand top to bottom and then
seat 1's: the first jack met is JC, the second JD, then JH and JS (likewise
for queens, kings and aces), and the plain cards take 2C 3C ... TC 2D ... TS
in that order. ``---AJ...`` thus starts ``2C 3C 4C AC JC``. Only the values
decide the play, so any other choice of cards gives the same game.

Records (JSON-ready dicts, the contract of ``cardwar play --variant beggar
--json``):

* :func:`trick_json` -> ``{"trick": 1, "starter": 0, "cards": ["JS", "2C"],
  "seats": [0, 1], "taker": 0, "cards_played": 2, "counts": [2, 5]}`` plus
  ``"outcome"``/``"reason"`` on the last trick.
* :func:`beggar_json` -> ``{"variant": "beggar", "players": 2, "seed",
  "outcome", "winner", "reason", "tricks", "cards_played", "final_counts",
  "seating", "cycle"}`` and, with ``log``, ``"log"`` (one :func:`trick_json`
  per trick). ``cycle`` is null, or for ``reason == "cycle"``
  ``{"start_trick", "start_cards", "length_tricks", "length_cards"}``
  (:class:`~cardwar.engine.beggar.game.Cycle`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import RANKS, Card, CardError, card_text, deal, parse_cards, parse_hands
from ..shuffle import seating, shuffled_deck
from .fast import BeggarSummary, play_beggar_fast, summarize_beggar
from .game import NAME, PLAYERS, SYMBOLS, BeggarGame, Cycle, TrickResult, check_players
from .game import notation as pile_notation

#: Symbols in one hand of a whole pack dealt to two (RULES.md 10.1-10.2: half the pack).
NOTATION_LENGTH = 26
_COURT_NAMES = {"J": "jacks", "Q": "queens", "K": "kings", "A": "aces"}
#: Plain cards in a pack (2 to 10 of every suit).
_PLAIN_CARDS = 36
_PLAIN = [Card(s * 13 + r) for s in range(4) for r in range(9)]  # 2C..TC, 2D..TD, ...


def _is_notation(hand: str) -> bool:
    symbols = "".join(hand.split()).upper()
    return bool(symbols) and all(ch in SYMBOLS for ch in symbols)


def cards_from_notation(hands: Sequence[str], *, whole_pack: bool = False) -> list[list[Card]]:
    """Give a deal in the records' notation its cards (the mapping is in the module doc).

    Args:
        hands: two hands, top card first, of any length (at least one symbol).
        whole_pack: the deal must be a whole pack: 26 symbols a hand, 4 of each
            court card (a deck in notation, :func:`parse_beggar_deck`).

    Raises:
        OptionError: not exactly two hands.
        CardError: a symbol that is not one of ``- J Q K A``, an empty hand,
            more of a court card (or more plain cards) than a pack holds, or,
            with ``whole_pack``, a hand that is not 26 symbols or a court card
            missing.
    """
    check_players(len(hands))
    cleaned = ["".join(h.split()).upper() for h in hands]
    for seat, hand in enumerate(cleaned):
        bad = next((ch for ch in hand if ch not in SYMBOLS), None)
        if bad is not None:
            raise CardError(f"seat {seat}: {bad!r} is not a symbol of the notation (- J Q K A)")
        if not hand:
            raise CardError(f"seat {seat} has an empty pile")
        if whole_pack and len(hand) != NOTATION_LENGTH:
            raise CardError(f"seat {seat}: a whole pack dealt to two is {NOTATION_LENGTH} "
                            f"symbols a hand, not {len(hand)}")
    everything = "".join(cleaned)
    for letter, name in _COURT_NAMES.items():
        n = everything.count(letter)
        if n > 4 or (whole_pack and n != 4):
            raise CardError(f"the deal has {n} {name}; a pack has 4")
    if (n := everything.count("-")) > _PLAIN_CARDS:
        raise CardError(f"the deal has {n} plain cards; a pack has {_PLAIN_CARDS}")
    met = {letter: 0 for letter in _COURT_NAMES}
    plain = iter(_PLAIN)
    out: list[list[Card]] = []
    for hand in cleaned:
        cards: list[Card] = []
        for ch in hand:
            if ch == "-":
                cards.append(next(plain))
            else:
                cards.append(Card(met[ch] * 13 + RANKS.index(ch)))  # suits C D H S in turn
                met[ch] += 1
        out.append(cards)
    return out


def parse_beggar_hands(text: str) -> list[list[Card]]:
    """Parse two hands separated by ``/``, as cards or in the records' notation.

    ``"JC 2C 3C / 4C JD 5C"`` (cards, any sizes; RULES.md 1) or
    ``"---AJ--Q---------QAKQJJ-QK / -----A----KJ-K--------A---"`` or
    ``"--J- / K-J-"`` (notation, any sizes; cards given as the module doc says).

    Raises:
        OptionError: not exactly two hands.
        CardError: a bad card or symbol, a duplicate card, an empty hand, more
            court or plain cards in notation than a pack holds, or a mix of
            the two forms.
    """
    parts = text.split("/")
    for seat, part in enumerate(parts):
        if not part.strip():
            raise CardError(f"seat {seat} has an empty pile")
    kinds = {_is_notation(p) for p in parts}
    if kinds == {True}:
        return cards_from_notation(parts)
    if kinds == {True, False}:
        for part in parts:
            if not _is_notation(part):
                parse_cards(part)  # a bad card is named first
        raise CardError("give both hands as cards or both in notation (- J Q K A)")
    hands = parse_hands(text)
    check_players(len(hands))
    return hands


def parse_beggar_deck(text: str) -> list[Card]:
    """Parse ``--deck``: cards (RULES.md 1), or a whole pack in notation, 52 symbols
    (``-`` and ``J Q K A``, top card first; spaces ignored), dealt by RULES.md 3.

    A deck in notation gets its cards as its two hands would (the module doc).

    Raises:
        CardError: a bad card or a duplicate, or a deck in notation that is not
            a whole pack (52 symbols, 4 of each court card).
    """
    if not _is_notation(text):
        return parse_cards(text)
    symbols = "".join(text.split()).upper()
    if len(symbols) != 2 * NOTATION_LENGTH:
        raise CardError(f"a deck in notation is a whole pack, {2 * NOTATION_LENGTH} "
                        f"symbols, not {len(symbols)}")
    # RULES.md 3: one card at a time, seat 0 first
    first, second = cards_from_notation([symbols[0::2], symbols[1::2]], whole_pack=True)
    return [c for pair in zip(first, second, strict=True) for c in pair]


@dataclass(frozen=True, slots=True)
class BeggarSetup:
    """Everything that fixes a game of Beggar-my-neighbour: the piles and the seed.

    Attributes:
        piles: seat 0's and seat 1's piles after the deal, top card first.
        seed: the shuffle seed, or None when the deck or hands were given.
    """

    piles: tuple[tuple[Card, ...], ...]
    seed: str | None = None

    @classmethod
    def from_seed(cls, seed: str) -> BeggarSetup:
        """Shuffle by ``seed`` (RULES.md 9) and deal 26 cards each (RULES.md 3)."""
        return cls.from_deck(shuffled_deck(seed), seed=seed)

    @classmethod
    def from_deck(cls, deck: Sequence[Card], *, seed: str | None = None) -> BeggarSetup:
        """Deal ``deck`` (top card first) to two players (RULES.md 3).

        Raises:
            ValueError: fewer than two cards, or a card twice.
        """
        piles = tuple(tuple(p) for p in deal(deck, PLAYERS))
        setup = cls(piles, seed)
        setup.new_game()  # validates
        return setup

    @classmethod
    def from_hands(cls, hands: Sequence[Sequence[Card]]) -> BeggarSetup:
        """Use ``hands`` as the piles, top card first.

        Raises:
            OptionError: not exactly two hands.
            ValueError: a card twice, or an empty hand.
        """
        setup = cls(tuple(tuple(h) for h in hands), None)
        setup.new_game()  # validates
        return setup

    @property
    def seating(self) -> list[int]:
        """Table seat -> lobby position (RULES.md 9, Seating); the identity without a seed."""
        return seating(self.seed, PLAYERS)

    def notation(self) -> list[str]:
        """Both piles in the records' notation (RULES.md 10.1)."""
        return [pile_notation(p) for p in self.piles]

    def new_game(self) -> BeggarGame:
        """Return a fresh :class:`~cardwar.engine.beggar.game.BeggarGame`."""
        return BeggarGame(self.piles)


def cycle_json(cycle: Cycle | None) -> dict[str, int] | None:
    """Return ``cycle`` as a JSON-ready dict (keys as its attributes), or None."""
    if cycle is None:
        return None
    return {"start_trick": cycle.start_trick, "start_cards": cycle.start_cards,
            "length_tricks": cycle.length_tricks, "length_cards": cycle.length_cards}


def trick_json(trick: TrickResult) -> dict[str, Any]:
    """Return one trick as a JSON-ready dict (shape in the module docstring)."""
    out: dict[str, Any] = {
        "trick": trick.number,
        "starter": trick.starter,
        "cards": [card_text(c) for c in trick.cards],
        "seats": list(trick.seats),
        "taker": trick.taker,
        "cards_played": trick.cards_played,
        "counts": list(trick.counts),
    }
    if trick.outcome is not None and trick.reason is not None:
        out["outcome"] = trick.outcome.value
        out["reason"] = trick.reason.value
    return out


def beggar_json(setup: BeggarSetup, *, log: bool = False) -> dict[str, Any]:
    """Play ``setup`` to the end and return the ``cardwar play --variant beggar --json`` object.

    Without ``log`` the fast path plays; with it, :class:`BeggarGame` trick by
    trick (same result). Keys are in the module docstring.
    """
    tricks: list[dict[str, Any]] = []
    if log:
        game = setup.new_game()
        while not game.over:
            tricks.append(trick_json(game.play_trick()))
        summary: BeggarSummary = summarize_beggar(game)
    else:
        summary = play_beggar_fast(setup.piles)
    out: dict[str, Any] = {
        "variant": NAME,
        "players": PLAYERS,
        "seed": setup.seed,
        "outcome": summary.outcome.value,
        "winner": summary.winner,
        "reason": summary.reason.value,
        "tricks": summary.tricks,
        "cards_played": summary.cards_played,
        "final_counts": list(summary.final_counts),
        "seating": setup.seating,
        "cycle": cycle_json(summary.cycle),
    }
    if log:
        out["log"] = tricks
    return out
