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
  :class:`BeggarSetup`, :func:`parse_beggar_hands`, :func:`beggar_json`.
"""

from .beggar import BeggarGame, CardResult, Cycle, TrickResult
from .beggar_fast import BeggarSummary, play_beggar_fast, simulate_beggar, summarize_beggar
from .beggar_records import BeggarSetup, beggar_json, parse_beggar_hands, trick_json
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
from .shuffle import commitment, new_seed, seated, seating, shuffled_deck
from .simulate import simulate
from .variants import (
    BEGGAR,
    PEACE,
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
    "BEGGAR",
    "PACK_SIZE",
    "PEACE",
    "STANDARD",
    "VARIANTS",
    "WAR",
    "BattleResult",
    "BeggarGame",
    "BeggarSetup",
    "BeggarSummary",
    "Card",
    "CardError",
    "CardResult",
    "Cycle",
    "Game",
    "GameOverError",
    "OptionError",
    "Outcome",
    "PeaceStep",
    "Play",
    "Reason",
    "SeatView",
    "Setup",
    "Summary",
    "TrickResult",
    "Variant",
    "battle_json",
    "beggar_json",
    "card_text",
    "cards_text",
    "commitment",
    "deal",
    "game_json",
    "get_variant",
    "new_seed",
    "parse_beggar_hands",
    "parse_card",
    "parse_cards",
    "parse_hands",
    "play_beggar_fast",
    "play_fast",
    "rank",
    "register",
    "seat_view",
    "seated",
    "seating",
    "shuffled_deck",
    "simulate",
    "simulate_beggar",
    "summarize",
    "summarize_beggar",
    "trick_json",
    "unregister",
]
