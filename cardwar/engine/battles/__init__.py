"""The battle games, Peace and War (RULES.md sections 4-7), pure.

* play: :class:`Game`, :class:`BattleResult`, :class:`PeaceStep` (``game``)
* whole games: :class:`Setup`, :func:`play_fast`, :func:`game_json`,
  :func:`battle_json` (``fast``, ``records``)
* many games: :func:`simulate` (``simulate``, on the compiled core of
  ``core`` and ``core_deal``, which only it imports)
* views: :class:`SeatView`, :func:`seat_view` (``view``: what a seat or
  spectator may see)
"""

from .fast import Summary, play_fast, summarize
from .game import BattleResult, Game, PeaceStep
from .records import Setup, battle_json, game_json
from .simulate import simulate
from .view import SeatView, seat_view

__all__ = [
    "BattleResult",
    "Game",
    "PeaceStep",
    "SeatView",
    "Setup",
    "Summary",
    "battle_json",
    "game_json",
    "play_fast",
    "seat_view",
    "simulate",
    "summarize",
]
