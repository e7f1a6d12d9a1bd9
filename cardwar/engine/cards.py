"""Cards and their text notation (RULES.md section 1).

A card is an ``int`` in ``0..51``: ``suit * 13 + rank`` where ``rank`` is
``0`` for a 2 up to ``12`` for an ace and suits run C, D, H, S. This is also
the order of a fresh pack (RULES.md section 9), so the pack is ``range(52)``.
Suits never matter in play; only :func:`rank` does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NewType

Card = NewType("Card", int)

RANKS = "23456789TJQKA"
SUITS = "CDHS"
PACK_SIZE = 52

#: ``RANK_OF[card]`` is the card's rank, 0 (a 2) to 12 (an ace).
RANK_OF: tuple[int, ...] = tuple(c % 13 for c in range(PACK_SIZE))

_TEXT: tuple[str, ...] = tuple(RANKS[c % 13] + SUITS[c // 13] for c in range(PACK_SIZE))
_PARSE: dict[str, Card] = {t: Card(i) for i, t in enumerate(_TEXT)}
_PARSE.update({"10" + SUITS[i // 13]: Card(i) for i in range(PACK_SIZE) if i % 13 == 8})


class CardError(ValueError):
    """Bad card text: an unknown token, a duplicate card or a bad layout.

    The message names the offending token, e.g. ``unknown card 'ZZ'``.
    """


def rank(card: Card) -> int:
    """Return the rank of ``card``: 0 for a 2 up to 12 for an ace."""
    return RANK_OF[card]


def card_text(card: Card) -> str:
    """Return the two-character notation of ``card``, e.g. ``"TD"`` (section 1)."""
    return _TEXT[card]


def cards_text(cards: Iterable[Card]) -> str:
    """Return ``cards`` as space-separated notation, e.g. ``"2C 9H"``."""
    return " ".join(_TEXT[c] for c in cards)


def parse_card(token: str) -> Card:
    """Parse one card, case-insensitive; ``10D`` is accepted for ``TD``.

    Raises:
        CardError: ``token`` is not a card.
    """
    card = _PARSE.get(token.strip().upper())
    if card is None:
        raise CardError(f"unknown card {token!r}")
    return card


def parse_cards(text: str, *, seen: set[Card] | None = None) -> list[Card]:
    """Parse whitespace-separated cards, e.g. ``"2C 5d 10H"``.

    Args:
        text: the cards, top card first.
        seen: cards already used elsewhere; updated in place. A card met
            twice (here or in ``seen``) is an error.

    Raises:
        CardError: an unknown or duplicate card.
    """
    used = set() if seen is None else seen
    out: list[Card] = []
    for token in text.split():
        card = parse_card(token)
        if card in used:
            raise CardError(f"duplicate card {card_text(card)!r}")
        used.add(card)
        out.append(card)
    return out


def parse_hands(text: str) -> list[list[Card]]:
    """Parse piles written top card first, seats separated by ``/``.

    ``"2C 5D / 9H 3S"`` gives ``[[2C, 5D], [9H, 3S]]`` (as card ints).

    Raises:
        CardError: an unknown or duplicate card, or an empty pile.
    """
    seen: set[Card] = set()
    hands = [parse_cards(part, seen=seen) for part in text.split("/")]
    for seat, hand in enumerate(hands):
        if not hand:
            raise CardError(f"seat {seat} has an empty pile")
    return hands


def deal(deck: Sequence[Card], players: int) -> list[list[Card]]:
    """Deal ``deck`` (top card first) one card at a time from seat 0 round the table.

    Every seat gets ``len(deck) // players`` cards; the rest are set aside
    (RULES.md section 3, [clarified]).

    Raises:
        ValueError: ``players`` is below 1 or exceeds the number of cards.
    """
    if players < 1 or players > len(deck):
        raise ValueError(f"cannot deal {len(deck)} cards to {players} players")
    each = len(deck) // players
    return [list(deck[seat : each * players : players]) for seat in range(players)]
