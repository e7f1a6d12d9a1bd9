"""The slap games: Egyptian Ratscrew and Slapjack (RULES.md section 11), pure.

* rules: :class:`SlapRules` (the table's options), :class:`Pattern`,
  :func:`pattern_of` [11.3-11.5]
* play: :class:`SlapGame` and its moves :class:`PutDown`, :class:`Slap`,
  :class:`Close`, pushed one at a time (:meth:`SlapGame.push`), each giving a
  :class:`Step` of typed events (:class:`CardDown`, :class:`WindowOpened`,
  :class:`SlapJudged`, :class:`CardsBurned`, :class:`PileTaken`,
  :class:`SeatOut`, :class:`GameEnded`) [11.2-11.7]
* computer players: :class:`Skill`, :data:`REFLEXES`, :class:`Computers`,
  :func:`decide` [11.6, 11.8]
* whole games and records: :class:`SlapSetup`, :class:`DecidedSlap`,
  :func:`parse_slaps`, :func:`play_decided`, :func:`play_computers`,
  :func:`slap_json` [11.9]; :func:`simulate_slaps`
"""

from .computers import REFLEXES, Computers, Intent, Reflexes, Skill, decide, parse_skills
from .events import (
    CardDown,
    CardsBurned,
    Close,
    Event,
    GameEnded,
    Move,
    PileTaken,
    PutDown,
    SeatOut,
    Slap,
    SlapError,
    SlapJudged,
    Step,
    Taking,
    Verdict,
    WindowOpened,
    WindowOpenError,
    move_from_json,
    move_json,
)
from .game import SlapGame
from .records import (
    DecidedSlap,
    SlapSetup,
    event_json,
    parse_slaps,
    play_computers,
    play_decided,
    slap_json,
    slaps_text,
)
from .rules import CARD_LIMIT, Pattern, SlapRules, pattern_of
from .simulate import simulate_slaps

__all__ = [
    "CARD_LIMIT",
    "REFLEXES",
    "CardDown",
    "CardsBurned",
    "Close",
    "Computers",
    "DecidedSlap",
    "Event",
    "GameEnded",
    "Intent",
    "Move",
    "Pattern",
    "PileTaken",
    "PutDown",
    "Reflexes",
    "SeatOut",
    "Skill",
    "Slap",
    "SlapError",
    "SlapGame",
    "SlapJudged",
    "SlapRules",
    "SlapSetup",
    "Step",
    "Taking",
    "Verdict",
    "WindowOpenError",
    "WindowOpened",
    "decide",
    "event_json",
    "move_from_json",
    "move_json",
    "parse_skills",
    "parse_slaps",
    "pattern_of",
    "play_computers",
    "play_decided",
    "simulate_slaps",
    "slap_json",
    "slaps_text",
]
