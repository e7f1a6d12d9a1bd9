"""The slap games at a table: the third kind of play, ``"slaps"`` (RULES.md 11).

Egyptian Ratscrew and Slapjack are played by a :class:`SlapKind`: the engine
game (:class:`~cardwar.engine.SlapGame`) moved only by the table's judge
(:class:`~.slap_judge.SlapJudge`), which puts cards down, holds slaps for
the window and decides them by reaction (11.6).

* **Putting down** goes through the table's flips like a game in turns (the
  seat to move, :meth:`SlapKind.to_act`; the ``put`` message, and the
  clocks' flips for computer, auto-flip and away seats at the game's pace).
* **A slap** (:func:`slap`, any seated player; :func:`computer_slap`, a seat
  the computer plays, after its drawn reaction, 11.8) and **the window's end
  or a waiting pile's take** (:func:`poll`) go to the judge; whatever it
  pushes on the game comes out as one stored ``move`` event.

One ``move`` event is one thing the judge did (a card put down, a slap
pushed at once, a window decided, a pile taken); its ``moves`` are the
engine moves in order, each slap with its figures (sent, arrived, latency,
reaction, in ms), so the record lets anyone check every award; ``events``
are the engine's events (cards as text; burned cards and taken piles by
count only, as they lie face down). A table is rebuilt from its stored
``options`` and ``move`` events (:func:`load_record` reads them with the
record; :attr:`GameRecord.history`): the moves are pushed again as they
were decided, so a restarted server carries on with the same game.

The options chosen at creation (:func:`table_options`) are the ``options``
event, the first event of the game.

**[clarified]** A slap held in a window lives in the memory of the process
holding the table until the window is decided (at most
:data:`~.slap_judge.WINDOW`); a restart in between loses it, as a dropped
connection would. Computer slaps are armed only by the process that played
the card, so a game followed by several processes never slaps twice for one
computer.
"""

from __future__ import annotations

import copy
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypedDict, cast

from cardwar.engine import (
    CardDown,
    Computers,
    DecidedSlap,
    Intent,
    OptionError,
    PileTaken,
    PutDown,
    Skill,
    Slap,
    SlapError,
    SlapGame,
    SlapRules,
    SlapSetup,
    Step,
    card_text,
    event_json,
    get_variant,
    move_from_json,
    move_json,
    parse_hands,
    slap_json,
    slaps_text,
    words_after_seating,
)
from cardwar.engine.shuffle import Words

from .errors import ErrorCode, TableError
from .events import Event
from .kinds import TOP_CARDS, StepKind, register_kind
from .records import GameRecord, GameStore
from .slap_judge import WINDOW, Judged, SlapJudge
from .slap_timing import LATENCY_CAP_MS, SlapTiming

if TYPE_CHECKING:
    from .table import Table

__all__ = [
    "PLAY",
    "TRICK_WAIT",
    "SlapKind",
    "computer_slap",
    "load_record",
    "poll",
    "slap",
    "slap_kind",
    "table_options",
]

#: The kind of play of the slap games (:attr:`cardwar.engine.Variant.play`).
PLAY = "slaps"
#: Seconds a pile waiting to be taken (a completed payment, 11.3) stays on the
#: table after its last card: the slap window, and time for a normal computer's
#: reaction (RULES.md 11.6, 11.8).
TRICK_WAIT = max(WINDOW, 0.8)


class MoveItem(TypedDict, total=False):
    """One engine move of a ``move`` event: ``move`` (:func:`~cardwar.engine.move_json`),
    and a slap's ``timing`` (:meth:`SlapTiming.json`)."""

    move: list[Any]
    timing: dict[str, Any]


def table_options(variant: str, *, sandwich: bool = True, marriage: bool = False,
                  top_bottom: bool = False, burn: int = 1, slap_in: bool = True,
                  skill: str = Skill.NORMAL.value) -> dict[str, Any]:
    """The ``options`` of a new table of ``variant`` (the start form's, RULES.md
    11.4-11.5, 11.8): the rules' options (:meth:`SlapRules.options`) and the
    computers' ``skill``.

    Raises:
        OptionError: not a slap game, an option it does not have, an unknown skill.
    """
    rules = SlapRules.make(variant, sandwich=sandwich, marriage=marriage,
                           top_bottom=top_bottom, burn=burn, slap_in=slap_in)
    if skill not in {s.value for s in Skill}:
        raise OptionError(f"unknown skill {skill!r}: relaxed, normal or sharp")
    return {**rules.options(), "skill": skill}


def _rules(variant: str, options: Mapping[str, Any]) -> tuple[SlapRules, Skill]:
    rules = {k: v for k, v in options.items() if k != "skill"}
    return SlapRules.from_options(variant, rules), Skill(options.get("skill", Skill.NORMAL))


def _setup(record: GameRecord, rules: SlapRules) -> SlapSetup:
    if record.seed is not None:
        return SlapSetup.from_seed(rules, record.players, record.seed)
    if record.hands is None:
        raise ValueError(f"game {record.id} has neither a seed nor hands")
    return SlapSetup.from_hands(rules, parse_hands(record.hands))


def _wire(event: object) -> dict[str, Any]:
    """An engine event as a ``move`` event lists it (face-down cards by count)."""
    out = event_json(event)  # type: ignore[arg-type]
    if out["event"] in ("burned", "taken"):
        out["count"] = len(out.pop("cards"))
    return out


class SlapKind(StepKind[SlapGame]):
    """A slap game at a table (see the module docstring).

    Args:
        setup: the deal and the rules.
        skill: the computers' skill (RULES.md 11.8).
        words: what the computers draw from (the seed's words after the seating).
        history: the ``moves`` of each stored ``move`` event, pushed again, in
            order, by the first :meth:`play` calls (the table replaying its steps).
        clock: monotonic seconds (the service's; a test passes its own).
    """

    step = "move"
    number = "move"
    refused = ErrorCode.NOT_YOUR_TURN
    clock_at_start = True
    #: automatic cards come no faster than the slap window (RULES.md 11.6)
    min_wait = WINDOW

    def __init__(self, setup: SlapSetup, skill: Skill, words: Words,
                 history: Sequence[Sequence[MoveItem]] = (),
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(setup.new_game())
        self.setup = setup
        self.skill = skill
        self.clock = clock
        self.judge = SlapJudge(self.game, trick_wait=TRICK_WAIT)
        #: every seat drawn as a computer would be, so the draws do not depend on
        #: who is a computer now (a seat handed over mid-game)
        self.computers = Computers(words, dict.fromkeys(range(setup.players), skill))
        #: the computers' slaps on the piles still on the table, each drawn when its
        #: card was put down (a pile covered by the next card may still be slapped)
        self.intents: list[Intent] = []
        #: the slaps that counted, as ``--slaps`` takes them (RULES.md 11.9)
        self.decided: list[DecidedSlap] = []
        #: every slap pushed, with its figures (the record's ``judged``)
        self.judged: list[dict[str, Any]] = []
        self._fed: deque[Sequence[MoveItem]] = deque(history)
        self._pending: list[tuple[Step, SlapTiming | None]] | None = None
        self._steps = 0

    # -- the Kind protocol ---------------------------------------------------
    def steps(self) -> int:
        """``move`` events played."""
        return self._steps

    def to_act(self) -> list[int]:
        """The seat to move, unless a pile waits to be taken (none once over)."""
        game = self.game
        return [] if game.over or game.window is not None else [game.to_move]

    def feed(self, moves: Sequence[MoveItem]) -> None:
        """The coming :meth:`play` pushes ``moves`` (a ``move`` event another process
        stored) instead of putting a card down."""
        self._fed.append(moves)

    def play(self, seq: int, acted: list[int]) -> tuple[list[Step], Event]:
        """Play the coming step: moves fed (:meth:`feed`, the history), else what the
        judge did (:func:`slap`, :func:`poll`), else a card put down by ``acted``."""
        if self._fed:
            done = [self._recorded(item) for item in self._fed.popleft()]
        elif self._pending is not None:
            done, self._pending = self._pending, None
        else:
            now = self.clock()
            self.judge.poll(now)  # a window or a wait over comes first
            game = self.game
            if not game.over and game.window is None and (not acted or game.to_move in acted):
                self.judge.put_down(now, game.to_move)
            done = self._outbox()
        self._steps += 1
        for step, timing in done:
            self._note(step, timing)
        return [s for s, _ in done], cast(Event, self._event(seq, done))

    def view(self, viewer: int | None) -> dict[str, object]:
        """Counts, the seat to move, what it owes, the top of the pile, the options."""
        game = self.game
        if viewer is not None and not 0 <= viewer < game.players:
            raise ValueError(f"no seat {viewer}")
        return {
            "viewer": viewer, "battle": self._steps, "counts": list(game.counts()),
            "in_play": [s not in game.out for s in range(game.players)],
            "eliminated": self._out(), "pot": 0,
            "outcome": None if game.outcome is None else game.outcome.value,
            "reason": None if game.reason is None else game.reason.value,
            "winner": game.winner, "to_move": None if game.over else game.to_move,
            "owed": game.owed,
            "owed_for": None if game.owed_for is None else card_text(game.owed_for),
            "court_seat": game.court_seat, "pile": len(game.table),
            "top": [card_text(c) for c in game.face_up[-TOP_CARDS:]], "tricks": game.tricks,
            "cards_played": game.cards_played, "window": game.window, "slaps": game.slaps,
            "burned": game.burned, "out": self._out(), "options": self.options(),
            "patterns": [p.value for p in game.rules.patterns],
            "window_ms": round(self.judge.window * 1000), "latency_cap_ms": LATENCY_CAP_MS,
        }

    def over_data(self) -> dict[str, object]:
        """Cards put down, tricks, slaps, burned cards, the options and the decided slaps."""
        g = self.game
        return {"battles": g.cards_played, "eliminated": self._out(), "tricks": g.tricks,
                "slaps": g.slaps, "burned": g.burned, "options": self.options(),
                "decided_slaps": slaps_text(self.decided)}

    def record_json(self, record: GameRecord) -> dict[str, object]:
        """``cardwar play --variant ers|slapjack --slaps … --log --json`` of the game,
        plus ``judged``: every slap with its figures (who, pile, verdict, sent,
        arrived, latency, reaction)."""
        out = slap_json(self.setup, slaps=self.decided, log=True)
        out["judged"] = list(self.judged)
        out["computer_skill"] = self.skill.value
        return out

    def start_counts(self, record: GameRecord) -> list[int]:
        """Each seat's pile at the deal."""
        return [len(p) for p in self.setup.piles]

    def command_args(self) -> list[str]:
        """What the replay command adds: the options that differ from the defaults
        and ``--slaps`` (RULES.md 11.9)."""
        rules = self.game.rules
        default = SlapRules.make(rules.variant)
        args: list[str] = []
        if rules.paying:
            flags = (("--no-sandwich", "sandwich", False), ("--marriage", "marriage", True),
                     ("--top-bottom", "top_bottom", True))
            opts = rules.options()
            args += [flag for flag, key, on in flags if opts[key] is on
                     and opts[key] != default.options()[key]]
            if rules.burn != default.burn:
                args += ["--burn", str(rules.burn)]
        if not rules.slap_in:
            args.append("--no-slap-in")
        return [*args, "--slaps", slaps_text(self.decided)]

    def copy(self) -> SlapKind:
        """An independent copy (game, judge and the computers' draws copied)."""
        other = SlapKind.__new__(SlapKind)
        other.__dict__.update(self.__dict__)
        other._game = self.game.copy()
        other.judge = self.judge.copy(other._game)
        other.computers = copy.deepcopy(self.computers)
        other.intents, other.decided = list(self.intents), list(self.decided)
        other.judged, other._fed = list(self.judged), deque(self._fed)
        other._pending = None if self._pending is None else list(self._pending)
        return other

    # -- the table's options -------------------------------------------------
    def options(self) -> dict[str, Any]:
        """The table's options (:func:`table_options`)."""
        return {**self.game.rules.options(), "skill": self.skill.value}

    def configure(self, options: Mapping[str, Any]) -> bool:
        """Take the table's ``options`` (an ``options`` event), before the first
        card; False when too late or not valid."""
        if self._steps:
            return False
        try:
            rules, skill = _rules(self.game.rules.variant, options)
        except (OptionError, ValueError):
            return False
        self.setup = SlapSetup(rules, self.setup.piles, self.setup.seed)
        self.skill = skill
        self._game = self.setup.new_game()
        self.judge = SlapJudge(self._game, trick_wait=TRICK_WAIT)
        self.computers = Computers(self.computers.words, dict.fromkeys(self.computers.skills,
                                                                       skill))
        return True

    # -- the judge -----------------------------------------------------------
    def pend(self) -> bool:
        """Take what the judge did since the last step for the coming :meth:`play`;
        True when there is something to play."""
        done = self._outbox()
        if not done:
            return False
        self._pending = [*(self._pending or []), *done]
        return True

    def _outbox(self) -> list[tuple[Step, SlapTiming | None]]:
        return [(x.step, x.timing) if isinstance(x, Judged) else (x, None)
                for x in self.judge.take_outbox()]

    def _recorded(self, item: MoveItem) -> tuple[Step, SlapTiming | None]:
        move = move_from_json(item["move"])
        timing = SlapTiming(**item["timing"]) if "timing" in item else None
        done = self.judge.recorded(move, self.clock(), timing)
        return (done.step, done.timing) if isinstance(done, Judged) else (done, None)

    def _note(self, step: Step, timing: SlapTiming | None) -> None:
        game = self.game
        if game.over or any(isinstance(e, PileTaken) for e in step.events):
            self.intents = []  # the piles they named are gone
        if isinstance(step.move, PutDown) and any(isinstance(e, CardDown) for e in step.events):
            if not game.over:  # a covered pile is still slappable: its slaps stay
                self.intents = [*self.intents, *self.computers.react(game)]
        elif isinstance(step.move, Slap):
            verdict = step.verdict
            assert verdict is not None  # a slap's step always has one
            self.intents = [i for i in self.intents if i.seat != step.move.seat]
            if verdict.counts:
                self.decided.append(DecidedSlap(step.move.pile, step.move.seat,
                                                step.cards_played))
            figures = timing.json() if timing is not None else {}
            self.judged.append({"seat": step.move.seat, "pile": step.move.pile,
                                "at": step.cards_played, "verdict": verdict.value, **figures})

    def _out(self) -> dict[str, int]:
        return {str(s): n for s, n in sorted(self.game.out.items())}

    def _event(self, seq: int, done: list[tuple[Step, SlapTiming | None]]) -> dict[str, Any]:
        g = self.game
        moves: list[MoveItem] = []
        for step, timing in done:
            item: MoveItem = {"move": move_json(step.move)}
            if timing is not None:
                item["timing"] = timing.json()
            moves.append(item)
        event: dict[str, Any] = {
            "type": "move", "seq": seq, "move": self._steps, "moves": moves,
            "events": [_wire(e) for step, _ in done for e in step.events],
            "cards_played": g.cards_played, "to_move": None if g.over else g.to_move,
            "owed": g.owed, "owed_for": None if g.owed_for is None else card_text(g.owed_for),
            "window": g.window, "counts": list(g.counts()), "pile": len(g.table),
            "top": [card_text(c) for c in g.face_up[-TOP_CARDS:]], "tricks": g.tricks,
            "slaps": g.slaps, "burned": g.burned, "out": self._out(),
        }
        if g.outcome is not None and g.reason is not None:
            event.update(outcome=g.outcome.value, reason=g.reason.value, winner=g.winner)
        return event


def slap_kind(record: GameRecord, clock: Callable[[], float] = time.monotonic) -> SlapKind:
    """The :class:`SlapKind` of ``record`` at its deal, with its stored moves to replay
    (:attr:`GameRecord.history`, let go once read).

    Raises:
        ValueError: the deal is invalid, or the record has steps but no history.
        OptionError: stored options the game does not have.
    """
    history, record.history = record.history or [], None
    options: Mapping[str, Any] = {}
    moves: list[Sequence[MoveItem]] = []
    for e in history:
        if e.type == "options":
            options = cast(Mapping[str, Any], e.data.get("options", {}))
        elif e.type == "move":
            moves.append(cast(Sequence[MoveItem], e.data["moves"]))
    if len(moves) != record.steps:
        raise ValueError(f"game {record.id}: {record.steps} steps but {len(moves)} moves "
                         "stored (load it with load_record)")
    rules, skill = _rules(record.variant, options)
    setup = _setup(record, rules)
    words = (words_after_seating(record.seed, record.players) if record.seed is not None
             else Words(f"hands:{record.hands}"))
    return SlapKind(setup, skill, words, moves, clock)


async def load_record(store: GameStore, game_id: str) -> GameRecord | None:
    """The stored game ``game_id``, with the events its kind needs to rebuild it
    (a slap game's ``options`` and ``move`` events: :attr:`GameRecord.history`)."""
    record = await store.load(game_id)
    if record is None or get_variant(record.variant).play != PLAY:
        return record
    events = await store.events_since(game_id, 0)
    record.history = [e for e in events if e.seq <= record.seq and e.type in ("options", "move")]
    return record


# -- what a table does with the judge ---------------------------------------------
def _kind(table: Table) -> SlapKind:
    if table.status != "playing":
        raise TableError(ErrorCode.NOT_PLAYING)
    if not isinstance(table.kind, SlapKind):
        raise TableError(ErrorCode.BAD_MESSAGE)
    return table.kind


def slap(table: Table, seat: int, pile: int, timing: SlapTiming | None) -> bool:
    """``seat`` slapped ``table``'s pile ``pile`` (RULES.md 11.5-11.6), with the
    figures measured where its socket is (None: timed here); True when the judge
    decided something (a ``move`` event), False when the slap is held in a window.

    Raises:
        TableError: ``not_playing``; ``bad_message`` (not a slap game, a pile not
            put down yet).
    """
    kind = _kind(table)
    try:
        kind.judge.slap(seat, pile, kind.clock(), timing)
    except SlapError:
        raise TableError(ErrorCode.BAD_MESSAGE) from None
    return table.step_now() if kind.pend() else False


def computer_slap(table: Table, seat: int, pile: int, reaction: int) -> bool:
    """The computer's slap for ``seat`` on pile ``pile`` after its drawn ``reaction``
    (ms, RULES.md 11.8); True when the judge decided something.

    Raises:
        TableError: as :func:`slap`.
    """
    kind = _kind(table)
    kind.intents = [i for i in kind.intents if i.seat != seat or i.pile != pile]
    try:
        kind.judge.computer_slap(seat, pile, reaction, kind.clock())
    except SlapError:
        raise TableError(ErrorCode.BAD_MESSAGE) from None
    return table.step_now() if kind.pend() else False


def poll(table: Table) -> bool:
    """Do what is due: decide a window that is over, take a pile whose wait is
    over (:meth:`SlapJudge.poll`); True when something was.

    Raises:
        TableError: ``not_playing``, ``bad_message`` (not a slap game).
    """
    kind = _kind(table)
    kind.judge.poll(kind.clock())
    return table.step_now() if kind.pend() else False


register_kind(PLAY, slap_kind)
