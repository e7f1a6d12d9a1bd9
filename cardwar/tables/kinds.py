"""How a table plays each kind of play (:attr:`cardwar.engine.Variant.play`).

A table moves by *steps*. A :class:`Kind` is a typed strategy bound to one
table's engine game: it says who may act for the coming step, when the acts
so far play it (:meth:`Kind.ready`), what playing it produces (the step's
event, fully formed: input in, event out), what each viewer may see, and how
the clocks run. One implementation per kind of play:

* :class:`Battles` (``"battles"``: every seat in play flips, then the battle
  is played, RULES.md 4-7; event ``battle``);
* :class:`Turns` (``"turns"``: Beggar-my-neighbour, only the seat to move
  puts down a card, RULES.md 10; event ``card``);
* :class:`~cardwar.tables.slap_kind.SlapKind` (``"slaps"``: the slap games,
  RULES.md 11; event ``move``: the seat to move puts down, and any seat
  slaps at any moment, judged by :mod:`cardwar.tables.slap_judge`);
* "anyone at any time": a kind whose
  :attr:`Kind.anyone` is true lets every seat in :meth:`Kind.to_act` act at
  any moment, and the first act plays the step (:meth:`StepKind.ready`).

:data:`KINDS` maps each play to the factory of its kind (:func:`register_kind`
adds one). Everything else a table does (lobby, seats, flips, clocks,
presence, rematch) is the same for every kind; ``GameRecord.steps`` counts
steps.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, Protocol, Self, TypeVar, cast

from cardwar.engine import (
    BattleResult,
    BeggarGame,
    BeggarSetup,
    CardResult,
    Game,
    Outcome,
    Reason,
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
from cardwar.engine.beggar.records import cycle_json

from .errors import ErrorCode
from .events import Battle, Card, Event
from .records import GameRecord

__all__ = [
    "KINDS",
    "TOP_CARDS",
    "Battles",
    "EngineGame",
    "Kind",
    "StepKind",
    "Turns",
    "battles_setup",
    "card_json",
    "kind_of",
    "register_kind",
    "turns_setup",
]

#: Cards of the pile on the table a page is shown (the newest last).
TOP_CARDS = 3


class EngineGame(Protocol):
    """What a table reads of any engine game (War's, Beggar-my-neighbour's, ...)."""

    @property
    def over(self) -> bool:
        """True once the game has an outcome."""
        ...

    @property
    def outcome(self) -> Outcome | None:
        """How it ended, once over."""
        ...

    @property
    def reason(self) -> Reason | None:
        """Why it ended, once over."""
        ...

    @property
    def winner(self) -> int | None:
        """The winning seat, if any."""
        ...

    def counts(self) -> tuple[int, ...]:
        """Cards each seat holds."""
        ...

    def copy(self) -> Self:
        """An independent copy: playing on it leaves this game as it is."""
        ...


class Kind(Protocol):
    """A kind of play bound to one table's engine game (see the module docstring).

    Attributes:
        step: the type of the event that plays one step (``battle``, ``card``).
        number: the key of the step's number in that event.
        refused: the error code for an act by a seat not in :meth:`to_act`.
        clock_at_start: the idle clock starts with the step (in turns nobody
            can flip first: :mod:`cardwar.tables.clocks`), not at its first flip.
        anyone: any seat of :meth:`to_act` may act at any moment, and the
            first act plays the step ("first to press").
        min_wait: the least seconds an automatic flip (a computer's, auto-flip,
            an away seat's) waits, whatever the pace (the slap games: their window).
    """

    step: str
    number: str
    refused: ErrorCode
    clock_at_start: bool
    anyone: bool
    min_wait: float

    @property
    def game(self) -> EngineGame:
        """The engine game being played."""
        ...

    def steps(self) -> int:
        """Steps played so far."""
        ...

    def to_act(self) -> list[int]:
        """The seats that may act for the coming step (none once over)."""
        ...

    def ready(self, acted: list[int]) -> bool:
        """True when the seats that ``acted`` (flipped, pressed) play the coming step."""
        ...

    def play(self, seq: int, acted: list[int]) -> tuple[object, Event]:
        """Play the coming step from the seats that ``acted``; return (the
        engine's result, the step's event numbered ``seq``, fully formed)."""
        ...

    def view(self, viewer: int | None) -> dict[str, object]:
        """What a seat (or a spectator, None) may see: the ``game`` of a
        ``state`` message, without card order.

        Raises:
            ValueError: ``viewer`` is no seat of the game.
        """
        ...

    def over_data(self) -> dict[str, object]:
        """What the ``over`` event adds to the end (steps, tricks, cycle)."""
        ...

    def record_json(self, record: GameRecord) -> dict[str, object]:
        """The finished game's ``cardwar play --log --json`` object."""
        ...

    def start_counts(self, record: GameRecord) -> list[int]:
        """Each seat's cards at the deal of ``record``."""
        ...

    def command_args(self) -> list[str]:
        """What the replay command (:func:`~cardwar.tables.table.replay_command`) adds
        after the deal: the table's options, the decided slaps (none for most kinds)."""
        ...

    def copy(self) -> Kind:
        """An independent copy (the engine game copied): playing on it leaves this one."""
        ...


G = TypeVar("G", bound=EngineGame)


class StepKind(Generic[G]):
    """The shared half of :class:`Kind` implementations over an engine game ``G``.

    A subclass sets the class attributes and ``steps``, ``to_act``, ``play``,
    ``view``, ``over_data``, ``record_json`` and ``start_counts``.

    Args:
        game: the engine game of the table.
    """

    step = ""
    number = ""
    refused = ErrorCode.OUT
    clock_at_start = False
    anyone = False
    min_wait = 0.0

    def __init__(self, game: G) -> None:
        self._game: G = game

    @property
    def game(self) -> G:
        """The engine game being played."""
        return self._game

    def to_act(self) -> list[int]:  # pragma: no cover - every kind says its own
        """The seats that may act for the coming step."""
        raise NotImplementedError

    def ready(self, acted: list[int]) -> bool:
        """Every seat of :meth:`to_act` acted; with :attr:`anyone`: any one did."""
        if self.anyone:
            return bool(acted)
        return set(self.to_act()) <= set(acted)

    def command_args(self) -> list[str]:
        """Nothing: the deal replays the game."""
        return []

    def copy(self) -> Kind:
        """An independent copy (the engine game copied)."""
        return cast(Kind, type(self)(self._game.copy()))


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


class Battles(StepKind[Game]):
    """Every seat in play flips, then the battle is played (RULES.md 4-7)."""

    step = "battle"
    number = "battle"
    refused = ErrorCode.OUT

    def steps(self) -> int:
        """Battles played."""
        return self.game.battles

    def to_act(self) -> list[int]:
        """The seats in play (none once over)."""
        return [] if self.game.over else self.game.in_play()

    def play(self, seq: int, acted: list[int]) -> tuple[BattleResult, Event]:
        """Play the battle: its ``battle`` event (engine ``battle_json``, and who is in play)."""
        game = self.game
        result = game.play_battle()
        event = {"type": "battle", "seq": seq, **battle_json(result),
                 "in_play": [s not in game.eliminated for s in range(game.players)]}
        return result, cast(Battle, event)

    def view(self, viewer: int | None) -> dict[str, object]:
        """The engine's seat view (:func:`cardwar.engine.seat_view`)."""
        return seat_view(self.game, viewer).to_json()

    def over_data(self) -> dict[str, object]:
        """Battles played and when each seat went out."""
        g = self.game
        return {"battles": g.battles,
                "eliminated": {str(s): b for s, b in sorted(g.eliminated.items())}}

    def record_json(self, record: GameRecord) -> dict[str, object]:
        """``cardwar play --log --json`` of the deal."""
        return game_json(battles_setup(record), log=True)

    def start_counts(self, record: GameRecord) -> list[int]:
        """Each seat's pile at the deal."""
        return [len(p) for p in battles_setup(record).piles]


def card_json(result: CardResult, game: BeggarGame) -> dict[str, object]:
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
    out: dict[str, object] = {
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


class Turns(StepKind[BeggarGame]):
    """Only the seat to move puts down a card (Beggar-my-neighbour, RULES.md 10)."""

    step = "card"
    number = "card"
    refused = ErrorCode.NOT_YOUR_TURN
    clock_at_start = True

    def steps(self) -> int:
        """Cards put down."""
        return self.game.cards_played

    def to_act(self) -> list[int]:
        """The seat to move (none once over)."""
        return [] if self.game.over else [self.game.to_move]

    def play(self, seq: int, acted: list[int]) -> tuple[CardResult, Event]:
        """Put the card down: its ``card`` event (:func:`card_json`)."""
        result = self.game.put_down()
        return result, cast(Card, {"type": "card", "seq": seq, **card_json(result, self.game)})

    def view(self, viewer: int | None) -> dict[str, object]:
        """Counts, the seat to move, what it owes and the top of the pile."""
        game = self.game
        if viewer is not None and not 0 <= viewer < 2:
            raise ValueError(f"no seat {viewer}")
        return {
            "viewer": viewer, "battle": game.cards_played, "counts": list(game.counts()),
            "in_play": [True, True], "eliminated": {}, "pot": 0,
            "outcome": None if game.outcome is None else game.outcome.value,
            "reason": None if game.reason is None else game.reason.value,
            "winner": game.winner, "to_move": None if game.over else game.to_move,
            "owed": game.owed,
            "owed_for": None if game.owed_for is None else card_text(game.owed_for),
            "court_seat": game.court_seat, "pile": len(game.table),
            "top": [card_text(c) for c in game.table[-TOP_CARDS:]], "tricks": game.tricks,
        }

    def over_data(self) -> dict[str, object]:
        """Cards put down, tricks, and the cycle of an endless game."""
        g = self.game
        return {"battles": g.cards_played, "eliminated": {}, "tricks": g.tricks,
                "cycle": cycle_json(g.cycle)}

    def record_json(self, record: GameRecord) -> dict[str, object]:
        """``cardwar play --variant beggar --log --json`` of the deal."""
        return beggar_json(turns_setup(record), log=True)

    def start_counts(self, record: GameRecord) -> list[int]:
        """Each seat's hand at the deal."""
        return [len(p) for p in turns_setup(record).piles]


#: The factory of each kind of play (:attr:`cardwar.engine.Variant.play`): the
#: :class:`Kind` of a record, its engine game at the deal.
KINDS: dict[str, Callable[[GameRecord], Kind]] = {
    "battles": lambda r: Battles(battles_setup(r).new_game()),
    "turns": lambda r: Turns(turns_setup(r).new_game()),
}


def register_kind(play: str, factory: Callable[[GameRecord], Kind]) -> None:
    """Let tables play variants whose :attr:`~cardwar.engine.Variant.play` is
    ``play``: ``factory`` makes the :class:`Kind` of a record (at its deal)."""
    KINDS[play] = factory


def kind_of(variant: Variant, record: GameRecord) -> Kind:
    """The :class:`Kind` of ``record`` (a game of ``variant``), at its deal.

    Raises:
        KeyError: no kind is registered for ``variant.play``.
        ValueError: the record's deal is invalid.
    """
    return KINDS[variant.play](record)
