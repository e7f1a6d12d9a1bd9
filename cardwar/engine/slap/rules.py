"""The slap games' table options and slappable patterns (RULES.md 11.3-11.5, 11.7).

:class:`SlapRules` is what a table chooses when it is created: the game
(``ers`` or ``slapjack``), the patterns it slaps, the cards a wrong slap
costs, slapping in, and the card limit. :func:`pattern_of` says whether the
face-up cards of a pile are slappable, and by which pattern.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..cards import PACK_SIZE, RANK_OF, RANKS, Card
from ..variants import ERS, SLAPJACK, OptionError

#: Cards put down after which a game still going is a draw (RULES.md 11.7).
CARD_LIMIT = 10_000
#: ``VALUE_OF[card]``: the cards owed for it in Egyptian Ratscrew: 0 (plain),
#: 1 (J), 2 (Q), 3 (K), 4 (A) (RULES.md 11.1, as 10.1).
VALUE_OF: tuple[int, ...] = tuple(max(0, RANK_OF[c] - 8) for c in range(PACK_SIZE))
_JACK, _QUEEN, _KING = RANKS.index("J"), RANKS.index("Q"), RANKS.index("K")


class Pattern(StrEnum):
    """A slappable pattern of the pile's face-up cards (RULES.md 11.4)."""

    #: The top two cards have the same rank (always on in Egyptian Ratscrew).
    DOUBLE = "double"
    #: The top card and the third from the top have the same rank (on by default).
    SANDWICH = "sandwich"
    #: The top two cards are a king and a queen, in either order (off by default).
    MARRIAGE = "marriage"
    #: The top card has the rank of the pile's first face-up card, 3 cards or more (off).
    TOP_BOTTOM = "top_bottom"
    #: Slapjack's only pattern: a jack on top.
    JACK = "jack"


@dataclass(frozen=True, slots=True)
class SlapRules:
    """A slap table's options (RULES.md 11.4, 11.5, 11.7), fixed at creation.

    Build one with :meth:`make` (which checks the options); the defaults are
    the standard game: Egyptian Ratscrew with doubles and sandwiches, 1 card
    burned for a wrong slap, slapping in allowed, a draw after 10,000 cards.

    Attributes:
        variant: ``"ers"`` (Egyptian Ratscrew) or ``"slapjack"``.
        patterns: the patterns slapped, in the order :func:`pattern_of` names
            them (``(JACK,)`` in Slapjack).
        burn: cards a wrong slap costs: 1 or 2 in Egyptian Ratscrew (burned
            under the pile), 1 in Slapjack (given to the player of the top card).
        slap_in: True when an empty player may still slap (11.7); False:
            an empty player is out at once (see :class:`~.game.SlapGame`).
        card_limit: cards put down after which a game still going is a draw.
    """

    variant: str = ERS.name
    patterns: tuple[Pattern, ...] = (Pattern.DOUBLE, Pattern.SANDWICH)
    burn: int = 1
    slap_in: bool = True
    card_limit: int = CARD_LIMIT

    @classmethod
    def make(cls, variant: str = ERS.name, *, sandwich: bool = True, marriage: bool = False,
             top_bottom: bool = False, burn: int = 1, slap_in: bool = True,
             card_limit: int = CARD_LIMIT) -> SlapRules:
        """The rules of ``variant`` with these options (RULES.md 11.4-11.5).

        Raises:
            OptionError: an unknown slap game, an option Slapjack does not
                have (its only pattern is a jack on top and a wrong slap gives
                one card), a burn other than 1 or 2, or a card limit below 1.
        """
        if variant == SLAPJACK.name:
            if not sandwich or marriage or top_bottom:
                raise OptionError("slapjack slaps only a jack on top: the sandwich, marriage "
                                  "and top-and-bottom options are Egyptian Ratscrew's")
            if burn != 1:
                raise OptionError("slapjack's wrong slap gives one card: "
                                  "burning 2 is Egyptian Ratscrew's option")
            patterns: tuple[Pattern, ...] = (Pattern.JACK,)
        elif variant == ERS.name:
            if burn not in (1, 2):
                raise OptionError(f"a wrong slap burns 1 or 2 cards, not {burn}")
            chosen = ((Pattern.SANDWICH, sandwich), (Pattern.MARRIAGE, marriage),
                      (Pattern.TOP_BOTTOM, top_bottom))
            patterns = (Pattern.DOUBLE, *(p for p, on in chosen if on))
        else:
            raise OptionError(f"{variant!r} is not a slap game (ers or slapjack)")
        if card_limit < 1:
            raise OptionError(f"the card limit must be at least 1, not {card_limit}")
        return cls(variant, patterns, burn, slap_in, card_limit)

    @property
    def paying(self) -> bool:
        """True when court cards must be paid for (Egyptian Ratscrew, 11.3)."""
        return self.variant == ERS.name

    def value(self, card: Card) -> int:
        """The cards owed for ``card``: 0-4 in Egyptian Ratscrew, always 0 in Slapjack."""
        return VALUE_OF[card] if self.paying else 0

    def options(self) -> dict[str, Any]:
        """The options as a JSON-ready dict, :meth:`from_options` reads it back.

        Egyptian Ratscrew: ``sandwich``, ``marriage``, ``top_bottom`` (booleans),
        ``burn`` (1 or 2), ``slap_in`` (boolean) and ``card_limit``; Slapjack:
        ``slap_in`` and ``card_limit`` only.
        """
        out: dict[str, Any] = {}
        if self.paying:
            out = {"sandwich": Pattern.SANDWICH in self.patterns,
                   "marriage": Pattern.MARRIAGE in self.patterns,
                   "top_bottom": Pattern.TOP_BOTTOM in self.patterns, "burn": self.burn}
        return {**out, "slap_in": self.slap_in, "card_limit": self.card_limit}

    @classmethod
    def from_options(cls, variant: str, options: dict[str, Any]) -> SlapRules:
        """The inverse of :meth:`options` (missing keys take their defaults).

        Raises:
            OptionError: as :meth:`make`.
        """
        return cls.make(variant, **options)


def pattern_of(face_up: Sequence[Card], patterns: Sequence[Pattern]) -> Pattern | None:
    """The first of ``patterns`` that the pile shows, or None (RULES.md 11.4).

    Args:
        face_up: the pile's face-up cards in the order put down (burned
            cards never count), the top card last.
        patterns: the table's patterns (:attr:`SlapRules.patterns`).
    """
    n = len(face_up)
    if not n:
        return None
    top = RANK_OF[face_up[-1]]
    for pattern in patterns:
        if pattern is Pattern.JACK:
            hit = top == _JACK
        elif pattern is Pattern.DOUBLE:
            hit = n >= 2 and RANK_OF[face_up[-2]] == top
        elif pattern is Pattern.SANDWICH:
            hit = n >= 3 and RANK_OF[face_up[-3]] == top
        elif pattern is Pattern.MARRIAGE:
            hit = n >= 2 and {top, RANK_OF[face_up[-2]]} == {_KING, _QUEEN}
        else:  # TOP_BOTTOM
            hit = n >= 3 and RANK_OF[face_up[0]] == top
        if hit:
            return pattern
    return None
