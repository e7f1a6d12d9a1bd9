"""The published record deals of Beggar-my-neighbour, 1999-2024 (RULES.md 10).

Each :class:`RecordDeal` is a deal in the records' notation (RULES.md 10.1)
with its finder and year, as listed by Richard Mann's record page
(richardpmann.weebly.com/beggar-my-neighbour-records.html) and in the paper
that published the first endless deal (Casella et al., arXiv:2403.13855).
Their counts are not stored here: :func:`record_results` plays each deal
with the engine, so the records page shows what *our* engine computes
(tests check it against the published counts).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .records import BeggarSetup, beggar_json, parse_beggar_hands


@dataclass(frozen=True, slots=True)
class RecordDeal:
    """One published deal.

    Attributes:
        finder: who found it, as the records list them.
        year: when it was found.
        hands: both hands in notation, ``"<seat 0> / <seat 1>"``, top first.
    """

    finder: str
    year: int
    hands: str

    @property
    def slug(self) -> str:
        """The deal's path segment, e.g. ``"nessler-2022"``."""
        name = self.finder.lower().replace(" & ", "-").replace(" ", "-")
        return f"{name}-{self.year}"

    def setup(self) -> BeggarSetup:
        """The deal as a :class:`BeggarSetup` (cards given as RULES.md 10.1 notation says)."""
        return BeggarSetup.from_hands(parse_beggar_hands(self.hands))


#: The record deals, oldest first: each was the longest known finite game when
#: found, and the last one never ends.
RECORD_DEALS: tuple[RecordDeal, ...] = (
    RecordDeal("Paulhus", 1999, "------------KAQ----J------ / -JQQK---K----JK--QA-A-JA--"),
    RecordDeal("Kleber", 1999, "---JQ---K-A----A-J-K---QK- / -J-----------AJQA----K---Q"),
    RecordDeal("Collins", 2006, "A-QK------Q----KA-----J--- / -JAK----A--Q----J---QJ--K-"),
    RecordDeal("Mann & Wu", 2007, "K-KK----K-A-----JAA--Q--J- / ---Q---Q-J-----J------AQ--"),
    RecordDeal("Nessler", 2012, "----Q------A--K--A-A--QJK- / -Q--J--J---QK---K----JA---"),
    RecordDeal("Anderson", 2013, "--A-Q--J--J---Q--AJ-K---K- / -J-------Q------A--A--QKK-"),
    RecordDeal("Rucklidge", 2014, "-J------Q------AAA-----QQ- / K----JA-----------KQ-K-JJK"),
    RecordDeal("Nessler", 2021, "----K---A--Q-A--JJA------J / -----KK---------A-JK-Q-Q-Q"),
    RecordDeal("Nessler", 2022, "---AJ--Q---------QAKQJJ-QK / -----A----KJ-K--------A---"),
    RecordDeal("Casella", 2024, "---K---Q-KQAJ-----AAJ--J-- / ----------Q----KQ-J-----KA"),
)


def record_deal(slug: str) -> RecordDeal | None:
    """The record deal whose :attr:`RecordDeal.slug` is ``slug``, or None."""
    return next((d for d in RECORD_DEALS if d.slug == slug), None)


@lru_cache(maxsize=1)
def record_results() -> tuple[dict[str, Any], ...]:
    """Every record deal played by the engine, in :data:`RECORD_DEALS` order.

    Returns:
        One :func:`~cardwar.engine.beggar_json` record per deal (no log), with
        ``finder``, ``year``, ``hands`` and ``slug`` added.
    """
    return tuple({**beggar_json(d.setup()), "finder": d.finder, "year": d.year,
                  "hands": d.hands, "slug": d.slug} for d in RECORD_DEALS)
