"""How a table plays each kind of play (:attr:`cardwar.engine.Variant.play`).

A table moves by *steps*: a battle (``"battles"``: every seat in play flips,
RULES.md 4-7) or one card put down (``"turns"``: Beggar-my-neighbour, only
the seat to move flips, RULES.md 10). :data:`KINDS` holds, per kind, what
differs: the engine game, who must flip for the coming step, the step's
event (``battle`` or ``card``), the seat view, the end data and the game's
``cardwar play --log --json`` record. Everything else a table does (lobby,
seats, flips, clocks, presence, rematch) is the same for every kind, and
``GameRecord.battles`` counts steps.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardwar.engine import (
    BattleResult,
    BeggarGame,
    BeggarSetup,
    CardResult,
    Game,
    Play,
    Setup,
    Variant,
    battle_json,
    beggar_json,
    card_text,
    game_json,
    get_variant,
    parse_beggar_hands,
    parse_hands,
    seat_view,
)
from cardwar.engine.beggar_records import cycle_json

from .errors import ErrorCode
from .records import GameRecord

#: A game in progress of either kind.
AnyGame = Game | BeggarGame
#: Cards of the pile on the table a page is shown (the newest last).
TOP_CARDS = 3


def battles_setup(record: GameRecord) -> Setup:
    """The deal of a battle game's ``record`` (seed, or stacked hands).

    Raises:
        ValueError: neither a seed nor hands.
    """
    variant = get_variant(record.variant)
    if record.seed is not None:
        return Setup.from_seed(variant, record.players, record.seed, record.face_down)
    if record.hands is None:
        raise ValueError(f"game {record.id} has neither a seed nor hands")
    return Setup.from_hands(variant, parse_hands(record.hands), record.face_down)


def turns_setup(record: GameRecord) -> BeggarSetup:
    """The deal of a game in turns' ``record`` (seed, or hands as cards or notation).

    Raises:
        ValueError: neither a seed nor hands.
    """
    if record.seed is not None:
        return BeggarSetup.from_seed(record.seed)
    if record.hands is None:
        raise ValueError(f"game {record.id} has neither a seed nor hands")
    return BeggarSetup.from_hands(parse_beggar_hands(record.hands))


def card_json(result: CardResult, game: BeggarGame) -> dict[str, Any]:
    """One card put down, as the ``card`` event carries it (no pile order: only
    cards face up on the table).

    Keys: ``card`` (its number), ``seat``, ``face_up`` (the card), ``paying``,
    ``owed``, ``owed_for`` (the court card being paid for, or None),
    ``to_move``, ``pile`` (cards on the table now), ``top`` (the newest
    :data:`TOP_CARDS` of them, oldest first; when a trick was just taken: of
    the cards taken), ``taken_by``, ``taken``, ``tricks``, ``counts``, and
    on the last card ``outcome``, ``reason``, ``cycle``.
    """
    shown = game.table[-TOP_CARDS:] if result.taken_by is None else game.last_taken[-TOP_CARDS:]
    out: dict[str, Any] = {
        "card": result.number, "seat": result.seat, "face_up": card_text(result.card),
        "paying": result.paying, "owed": result.owed,
        "owed_for": None if result.owed_for is None else card_text(result.owed_for),
        "to_move": result.to_move, "pile": result.pile, "top": [card_text(c) for c in shown],
        "taken_by": result.taken_by, "taken": result.taken, "tricks": result.tricks,
        "counts": list(result.counts),
    }
    if result.outcome is not None and result.reason is not None:
        out.update(outcome=result.outcome.value, reason=result.reason.value,
                   cycle=cycle_json(result.cycle))
    return out


def _turns_view(game: BeggarGame, viewer: int | None) -> dict[str, Any]:
    if viewer is not None and not 0 <= viewer < 2:
        raise ValueError(f"no seat {viewer}")
    return {
        "viewer": viewer, "battle": game.cards_played, "counts": list(game.counts()),
        "in_play": [True, True], "eliminated": {}, "pot": 0,
        "outcome": None if game.outcome is None else game.outcome.value,
        "reason": None if game.reason is None else game.reason.value,
        "winner": game.winner, "to_move": None if game.over else game.to_move,
        "owed": game.owed, "owed_for": None if game.owed_for is None else card_text(game.owed_for),
        "court_seat": game.court_seat, "pile": len(game.table),
        "top": [card_text(c) for c in game.table[-TOP_CARDS:]], "tricks": game.tricks,
    }


@dataclass(frozen=True)
class Kind:
    """What a table does differently for one kind of play (see the module docstring).

    Attributes:
        step: the type of the event that plays one step (``battle``, ``card``).
        new_game: the game at the deal of a record.
        steps: steps played so far.
        to_act: the seats that must flip for the coming step (none once over).
        refused: the error code for a flip by a seat not in ``to_act``.
        play: play the coming step; return (the engine's result, the step's
            JSON as its event carries it).
        view: what a seat (or a spectator, None) may see: the ``game`` of a
            ``state`` message, without card order.
        over_data: what the ``over`` event adds to the end (tricks, cycle).
        record_json: the finished game's ``cardwar play --log --json`` object.
        start_counts: each seat's cards at the deal.
        clock_at_start: the idle clock starts with the step (in turns nobody
            can flip first: :mod:`cardwar.tables.clocks`), not at its first flip.
    """

    step: str
    new_game: Callable[[GameRecord], Any]
    steps: Callable[[Any], int]
    to_act: Callable[[Any], list[int]]
    refused: ErrorCode
    play: Callable[[Any], tuple[Any, dict[str, Any]]]
    view: Callable[[Any, int | None], dict[str, Any]]
    over_data: Callable[[Any], dict[str, Any]]
    record_json: Callable[[GameRecord], dict[str, Any]]
    start_counts: Callable[[GameRecord], list[int]]
    clock_at_start: bool = False


def _play_battle(game: Game) -> tuple[BattleResult, dict[str, Any]]:
    result = game.play_battle()
    return result, {**battle_json(result),
                    "in_play": [s not in game.eliminated for s in range(game.players)]}


def _play_card(game: BeggarGame) -> tuple[CardResult, dict[str, Any]]:
    result = game.put_down()
    return result, card_json(result, game)


#: The kind of each :data:`cardwar.engine.Play`.
KINDS: dict[Play, Kind] = {
    "battles": Kind(
        step="battle",
        new_game=lambda r: battles_setup(r).new_game(),
        steps=lambda g: g.battles,
        to_act=lambda g: [] if g.over else g.in_play(),
        refused=ErrorCode.OUT,
        play=_play_battle,
        view=lambda g, viewer: seat_view(g, viewer).to_json(),
        over_data=lambda g: {"battles": g.battles,
                             "eliminated": {str(s): b for s, b in sorted(g.eliminated.items())}},
        record_json=lambda r: game_json(battles_setup(r), log=True),
        start_counts=lambda r: [len(p) for p in battles_setup(r).piles],
    ),
    "turns": Kind(
        step="card",
        new_game=lambda r: turns_setup(r).new_game(),
        steps=lambda g: g.cards_played,
        to_act=lambda g: [] if g.over else [g.to_move],
        refused=ErrorCode.NOT_YOUR_TURN,
        play=_play_card,
        view=_turns_view,
        over_data=lambda g: {"battles": g.cards_played, "eliminated": {}, "tricks": g.tricks,
                             "cycle": cycle_json(g.cycle)},
        record_json=lambda r: beggar_json(turns_setup(r), log=True),
        start_counts=lambda r: [len(p) for p in turns_setup(r).piles],
        clock_at_start=True,
    ),
}


def kind_of(variant: Variant) -> Kind:
    """The :class:`Kind` of ``variant``'s play."""
    return KINDS[variant.play]
