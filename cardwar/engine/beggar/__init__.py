"""Beggar-my-neighbour (RULES.md section 10), pure.

* play: :class:`BeggarGame` (one card or one trick at a time),
  :class:`CardResult`, :class:`TrickResult`, :class:`Cycle` (``game``)
* whole games: :func:`play_beggar_fast`, :class:`BeggarSummary`,
  :func:`summarize_beggar`, :func:`simulate_beggar` (``fast``)
* deals and records: :class:`BeggarSetup`, :func:`parse_beggar_hands`,
  :func:`parse_beggar_deck`, :func:`beggar_json`, :func:`trick_json`
  (``records``); the published record deals (``deals``)
"""

from .fast import BeggarSummary, play_beggar_fast, simulate_beggar, summarize_beggar
from .game import BeggarGame, CardResult, Cycle, TrickResult
from .records import BeggarSetup, beggar_json, parse_beggar_deck, parse_beggar_hands, trick_json

__all__ = [
    "BeggarGame",
    "BeggarSetup",
    "BeggarSummary",
    "CardResult",
    "Cycle",
    "TrickResult",
    "beggar_json",
    "parse_beggar_deck",
    "parse_beggar_hands",
    "play_beggar_fast",
    "simulate_beggar",
    "summarize_beggar",
    "trick_json",
]
