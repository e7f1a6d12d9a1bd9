"""The rules of Peace, War and Beggar-my-neighbour, pure: no I/O, no asyncio, no web imports.

Public API (RULES.md sections in brackets):

* cards: :class:`Card`, :func:`parse_cards`, :func:`parse_hands`,
  :func:`card_text`, :func:`deal` [1, 3]
* variants: :data:`PEACE`, :data:`WAR`, :data:`BEGGAR`, :data:`VARIANTS`, :func:`get_variant`,
  :func:`register` [2]
* shuffle: :func:`shuffled_deck`, :func:`commitment`, :func:`new_seed`,
  :func:`seating`, :func:`seated` [9]
* play: :class:`Game`, :class:`BattleResult`, :class:`PeaceStep` [4-7]
* whole games: :class:`Setup`, :func:`play_fast`, :func:`game_json`,
  :func:`simulate`
* views: :func:`seat_view` (what a seat or spectator may see)
* Beggar-my-neighbour [10] (:data:`BEGGAR`, ``play="turns"``):
  :class:`BeggarGame` (one card or one trick at a time),
  :class:`CardResult`, :class:`TrickResult`, :class:`Cycle`,
  :func:`play_beggar_fast`, :class:`BeggarSummary`, :func:`simulate_beggar`,
  :class:`BeggarSetup`, :func:`parse_beggar_hands`, :func:`parse_beggar_deck`,
  :func:`beggar_json`.
* Egyptian Ratscrew and Slapjack [11] (:data:`ERS`, :data:`SLAPJACK`,
  ``play="slaps"``, not online yet): the subpackage :mod:`cardwar.engine.slap`,
  every public name of it exported here too (:class:`SlapGame`,
  :class:`SlapRules`, :class:`Slap`, :class:`Step`, :class:`Skill`, ...).
"""

from .beggar import BeggarGame, CardResult, Cycle, TrickResult
from .beggar_fast import BeggarSummary, play_beggar_fast, simulate_beggar, summarize_beggar
from .beggar_records import (
    BeggarSetup,
    beggar_json,
    parse_beggar_deck,
    parse_beggar_hands,
    trick_json,
)
from .cards import (
    PACK_SIZE,
    Card,
    CardError,
    card_text,
    cards_text,
    deal,
    parse_card,
    parse_cards,
    parse_hands,
    rank,
)
from .fast import Summary, play_fast, summarize
from .game import BattleResult, Game, GameOverError, Outcome, PeaceStep, Reason
from .records import Setup, battle_json, game_json
from .shuffle import (
    Words,
    commitment,
    new_seed,
    seated,
    seating,
    shuffled_deck,
    words_after_seating,
)
from .simulate import simulate
from .slap import (
    CARD_LIMIT,
    REFLEXES,
    CardDown,
    CardsBurned,
    Close,
    Computers,
    DecidedSlap,
    Event,
    GameEnded,
    Intent,
    Move,
    Pattern,
    PileTaken,
    PutDown,
    Reflexes,
    SeatOut,
    Skill,
    Slap,
    SlapError,
    SlapGame,
    SlapJudged,
    SlapRules,
    SlapSetup,
    Step,
    Taking,
    Verdict,
    WindowOpened,
    WindowOpenError,
    decide,
    event_json,
    move_from_json,
    move_json,
    parse_skills,
    parse_slaps,
    pattern_of,
    play_computers,
    play_decided,
    simulate_slaps,
    slap_json,
    slaps_text,
)
from .variants import (
    BEGGAR,
    ERS,
    PEACE,
    SLAPJACK,
    STANDARD,
    VARIANTS,
    WAR,
    OptionError,
    Play,
    Variant,
    get_variant,
    register,
    unregister,
)
from .view import SeatView, seat_view

__all__ = [
    "PACK_SIZE", "Card", "CardError", "card_text", "cards_text", "deal", "parse_card",
    "parse_cards", "parse_hands", "rank", "Summary", "play_fast", "summarize",
    "BattleResult", "Game", "GameOverError", "Outcome", "PeaceStep", "Reason", "Setup",
    "battle_json", "game_json", "commitment", "new_seed", "shuffled_deck", "simulate",
    "BEGGAR", "PEACE", "STANDARD", "VARIANTS", "WAR", "OptionError", "Play", "Variant",
    "get_variant", "register", "unregister",
    "SeatView", "seat_view", "seated", "seating", "BeggarGame", "CardResult", "Cycle",
    "TrickResult", "BeggarSummary", "play_beggar_fast", "simulate_beggar", "summarize_beggar",
    "BeggarSetup", "beggar_json", "parse_beggar_deck", "parse_beggar_hands", "trick_json",
    "ERS", "SLAPJACK", "Words", "words_after_seating",
    "REFLEXES", "Computers", "Intent", "Reflexes", "Skill", "decide", "parse_skills",
    "CardDown", "CardsBurned", "Close", "Event", "GameEnded", "Move", "PileTaken", "PutDown",
    "SeatOut", "Slap", "SlapError", "SlapJudged", "Step", "Taking", "Verdict", "WindowOpened",
    "WindowOpenError", "move_from_json", "move_json", "SlapGame", "DecidedSlap", "SlapSetup",
    "event_json", "parse_slaps", "play_computers", "play_decided", "slap_json", "slaps_text",
    "CARD_LIMIT", "Pattern", "SlapRules", "pattern_of", "simulate_slaps",
]
