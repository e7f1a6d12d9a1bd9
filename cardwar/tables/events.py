"""The registry of events and error codes: one row per message type.

(Over 400 lines on purpose: it is the one list of every message type, a
TypedDict and a row each; splitting it would scatter what CONTRIBUTING.md
asks a contributor to find in one place.)

Every message the server sends a browser (besides the ``state`` snapshot of
:mod:`cardwar.tables.views`) is one of the :data:`EVENTS`. A row gives:

* its shape, a :class:`~typing.TypedDict` (the keys a browser receives are
  the shape's keys: :func:`browser_keys`);
* whether it is *stored* (numbered by ``seq``, saved, replayed on reconnect)
  or ephemeral (``seq`` is None: presence, heartbeats, clocks);
* for stored events, how it changes a table (:func:`apply_event`): a
  :class:`~cardwar.tables.Table` applies its own events with it, and a
  process that follows a game another process changes applies them too
  (:func:`follow`), so the rules of a change exist once;
* a line of documentation, from which ``PROTOCOL.md`` is generated
  (``python -m cardwar.web.protocol_doc``).

:class:`~cardwar.tables.errors.ErrorCode` names every reason a request is refused.

Adding a message type: a TypedDict, an apply function if it is stored, a
row in :data:`EVENTS`, its wording in ``cardwar/web/strings.py`` if the page
shows it, and its handling in ``game.js`` (see CONTRIBUTING.md).

:data:`REACTIONS` are the preset reactions a page may send: keys, never
text (each page words them in its reader's language).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    NotRequired,
    Protocol,
    TypedDict,
    TypeVar,
    cast,
    get_args,
)

from .errors import ErrorCode, TableError
from .records import GameRecord

if TYPE_CHECKING:
    from .kinds import Kind

__all__ = [
    "EVENTS",
    "PACES",
    "REACTIONS",
    "ErrorCode",
    "Event",
    "EventSpec",
    "ReactionKey",
    "TableError",
    "apply_event",
    "browser_keys",
    "follow",
    "play_step",
    "seats_changed",
    "stored_row",
]


# -- shapes ----------------------------------------------------------------
SeatKind = Literal["open", "human", "computer", "reserved", "left"]
FlipBy = Literal["player", "auto", "timer", "computer", "gone"]
#: The preset reactions: five emoji (applause, surprise, laughter, sadness, a
#: dove of peace) and three short phrases ("Good game", "Peace!" - "War!" in
#: War - and "One more?"). Pages word them (cardwar/web/strings.py).
#: A player's pace of automatic flips (see :mod:`cardwar.tables.clocks`).
Pace = Literal["slow", "normal", "fast"]
PACES: tuple[str, ...] = get_args(Pace)
ReactionKey = Literal["clap", "wow", "laugh", "sad", "dove", "gg", "tie", "again"]
REACTIONS: tuple[str, ...] = get_args(ReactionKey)


class Joined(TypedDict):
    """A seat was taken: by a human, a computer, or ``reserved`` (in a rematch,
    kept for the former player ``nickname``); ``creator`` is the seat that may
    start the game now."""

    type: Literal["joined"]
    seq: int
    seat: int
    kind: SeatKind
    nickname: str | None
    creator: int | None


class Started(TypedDict):
    """The game started (open and reserved seats went to the computer) and the
    seed drew the seating (RULES.md 9): ``seating[s]`` is the lobby seat of the
    player who now sits at table seat ``s``; every later message numbers seats
    by table seat."""

    type: Literal["started"]
    seq: int
    counts: list[int]
    seating: NotRequired[list[int]]


class Flipped(TypedDict):
    """A seat flipped for battle ``battle``, by itself or for it."""

    type: Literal["flipped"]
    seq: int
    seat: int
    battle: int
    by: FlipBy


class Battle(TypedDict):
    """Every seat in play flipped: the battle was played (engine ``battle_json``,
    face-down peace cards included, and which seats are still in play)."""

    type: Literal["battle"]
    seq: int
    battle: int
    face_up: list[str | None]
    winning_seats: list[int]
    peaces: list[dict[str, Any]]
    winner: int | None
    pot: int
    out: list[int]
    counts: list[int]
    outcome: NotRequired[str]
    reason: NotRequired[str]
    in_play: list[bool]


class Card(TypedDict):
    """In a game in turns (Beggar-my-neighbour), the seat to move put down card
    number ``card`` (``face_up``), paying for a court card or not; ``to_move``
    puts down the next one and owes ``owed`` cards for ``owed_for``; the pile
    on the table holds ``pile`` cards (``top``: the newest, or those just
    taken) and ``taken_by`` took ``taken`` cards with it (a trick)."""

    type: Literal["card"]
    seq: int
    card: int
    seat: int
    face_up: str
    paying: bool
    owed: int
    owed_for: str | None
    to_move: int
    pile: int
    top: list[str]
    taken_by: int | None
    taken: int
    tricks: int
    counts: list[int]
    outcome: NotRequired[str]
    reason: NotRequired[str]
    cycle: NotRequired[dict[str, int] | None]


class OptionsSet(TypedDict):
    """A slap game's table options, chosen at creation (the first event): ``options``
    holds ``sandwich``, ``marriage``, ``top_bottom``, ``burn`` (Egyptian Ratscrew
    only), ``slap_in``, ``card_limit`` and the computers' ``skill`` (RULES.md 11.4-11.8)."""

    type: Literal["options"]
    seq: int
    options: dict[str, Any]


class Moved(TypedDict):
    """In a slap game (RULES.md 11), the table's judge did one thing, step ``move``:
    put a card down, pushed a slap at once, decided a slap window (every slap held,
    in the order decided) or let a waiting pile go. ``moves``: the engine moves
    (``{"move": ["put", seat] | ["slap", seat, pile] | ["close"]}``, a slap with
    its ``timing``: ``sent``, ``arrived``, ``latency``, ``reaction`` in ms,
    ``computer``); ``events``: what they did (``card``, ``window``, ``slap`` with
    its ``verdict``, ``burned``, ``taken``, ``out``, ``end``); then the state after
    them (:mod:`cardwar.tables.slap_kind`)."""

    type: Literal["move"]
    seq: int
    move: int
    moves: list[dict[str, Any]]
    events: list[dict[str, Any]]
    cards_played: int
    to_move: int | None
    owed: int
    owed_for: str | None
    window: int | None
    counts: list[int]
    pile: int
    top: list[str]
    tricks: int
    slaps: int
    burned: int
    out: dict[str, int]
    outcome: NotRequired[str]
    reason: NotRequired[str]
    winner: NotRequired[int | None]


class OverData(TypedDict):
    """How a game ended (:meth:`cardwar.tables.Table.result`); ``battles`` counts
    steps (cards put down in a game in turns, which adds ``tricks`` and the
    ``cycle`` of an endless game)."""

    outcome: str
    reason: str
    winner: int | None
    battles: int
    final_counts: list[int]
    eliminated: dict[str, int]
    seed: str | None
    hands: str | None
    command: str
    tricks: NotRequired[int]
    cycle: NotRequired[dict[str, int] | None]
    slaps: NotRequired[int]
    burned: NotRequired[int]
    options: NotRequired[dict[str, Any]]
    decided_slaps: NotRequired[str]


class Over(OverData):
    """The game ended; the seed (or stacked hands) and the replay command are revealed."""

    type: Literal["over"]
    seq: int


class AutoFlip(TypedDict):
    """A player switched auto-flip."""

    type: Literal["auto_flip"]
    seq: int
    seat: int
    on: bool


class Handed(TypedDict):
    """The creator let the computer play for a gone player's seat."""

    type: Literal["handed"]
    seq: int
    seat: int


class Relinked(TypedDict):
    """The seat's secret was replaced (a new device link); old ones stop working."""

    type: Literal["relinked"]
    seq: int
    seat: int


class Rematch(TypedDict):
    """Seat ``by`` offered a rematch: the new game's id."""

    type: Literal["rematch"]
    seq: int
    game: str
    by: int


class PaceSet(TypedDict):
    """A player chose their pace of automatic flips (``slow``, ``normal`` or ``fast``).
    When no human in play flips by hand, the game goes at the fastest pace of its
    players."""

    type: Literal["pace"]
    seq: int
    seat: int
    pace: Pace


class FastForward(TypedDict):
    """Seat ``seat`` fast-forwarded the game to the result: out of the game while
    nobody in play flips by hand, or in play with no other human in play who is
    not away ("Finish the game"); the battles left are played without waiting."""

    type: Literal["fast_forward"]
    seq: int
    seat: int


class Left(TypedDict):
    """The player of ``seat`` left the table: the computer plays the seat to the end
    (kind ``left``), or, in the lobby, the seat is open again and the players after
    it move up a seat (``seating[s]``: the seat whose player now sits at ``s``, as
    in ``started``; left out when nobody moves), so the lobby keeps the order in
    which players came; ``creator`` is the seat that may start the game or hand
    seats over now (numbered after the move)."""

    type: Literal["left"]
    seq: int
    seat: int
    creator: int | None
    seating: NotRequired[list[int]]


class Online(TypedDict):
    """A seat's first connection opened, or its last one closed."""

    type: Literal["presence"]
    seq: None
    seat: int
    online: bool


class Gone(TypedDict):
    """A seat's player has been away long enough to be played for (or came back)."""

    type: Literal["gone"]
    seq: None
    seat: int
    gone: bool


class Watchers(TypedDict):
    """How many spectators are connected (on every server process)."""

    type: Literal["watchers"]
    seq: None
    count: int


class Idle(TypedDict):
    """The idle clock of battle ``battle`` started: ``left`` seconds to flip."""

    type: Literal["idle"]
    seq: None
    battle: int
    left: float | None


class Reaction(TypedDict):
    """A player (``seat``) or a spectator (``seat`` null) reacted with the preset
    reaction ``key``; every page words it in its own language and shows it briefly.
    Not stored: a page that connects later never sees it."""

    type: Literal["reaction"]
    seq: None
    seat: int | None
    key: ReactionKey


class Error(TypedDict):
    """A request was refused (``code``: an :class:`ErrorCode`); nothing changed."""

    type: Literal["error"]
    seq: None
    code: str


class Ping(TypedDict):
    """The server's heartbeat (pages answer ``pong``, with its ``id`` when it has
    one: a seated player's heartbeats are numbered, and their round trips give the
    latency slaps are judged with, RULES.md 11.6)."""

    type: Literal["ping"]
    seq: None
    id: NotRequired[int]


class Pong(TypedDict):
    """The answer to a page's ``ping``."""

    type: Literal["pong"]
    seq: None


#: A stored event (numbered, saved, applied by every process following the game).
Event = (Joined | Started | Flipped | Battle | Card | Over | AutoFlip | Handed | Relinked
         | Rematch | PaceSet | FastForward | Left | OptionsSet | Moved)


class TableState(Protocol):
    """What an event changes: a :class:`~cardwar.tables.Table`'s state."""

    record: GameRecord
    kind: Kind
    last: object
    last_json: Event | None
    rematch: str | None
    rematch_by: int | None
    skipping: bool


# -- how each stored event changes a table ---------------------------------------
def _joined(t: TableState, e: Joined) -> bool:
    if e["kind"] == "reserved" and t.record.status != "lobby":
        return False
    rec = t.record.seats[e["seat"]]
    rec.kind, rec.nickname = e["kind"], e["nickname"]
    if e["kind"] != "human":  # a human's secret hash is set by the table, never sent
        rec.secret_hash = None
    return True


def _started(t: TableState, e: Started) -> bool:
    order = e.get("seating") or list(range(len(t.record.seats)))
    if t.record.status != "lobby" or sorted(order) != list(range(len(t.record.seats))):
        return False
    lobby = t.record.seats
    t.record.seats = [dataclasses.replace(lobby[p], seat=s) for s, p in enumerate(order)]
    t.record.status, t.record.flipped = "playing", []
    return True


def _flipped(t: TableState, e: Flipped) -> bool:
    if t.record.status != "playing" or e["battle"] != t.kind.steps() + 1:
        return False
    t.record.flipped = sorted({*t.record.flipped, e["seat"]})
    return True


def play_step(t: TableState, seq: int) -> Event:
    """Play ``t``'s coming step from the seats that acted (``t.record.flipped``):
    the input in, the step's event (numbered ``seq``, fully formed) out.

    The one rule of a step, for a table's own steps (:meth:`Table.flip`) and for
    those another process played (the ``battle`` and ``card`` rows of
    :data:`EVENTS`: the deal is fixed, so the step comes out the same).
    """
    t.last, event = t.kind.play(seq, list(t.record.flipped))
    t.last_json = event
    t.record.steps, t.record.flipped = t.kind.steps(), []
    return event


def _step(t: TableState, e: Mapping[str, object]) -> bool:
    """Apply a step event another process played (:func:`play_step`)."""
    if (t.record.status != "playing" or e.get("type") != t.kind.step
            or e.get(t.kind.number) != t.kind.steps() + 1 or t.kind.game.over
            or not t.kind.ready(list(t.record.flipped))):
        return False
    play_step(t, cast(int, e["seq"]))
    return True


def _options(t: TableState, e: OptionsSet) -> bool:
    configure = getattr(t.kind, "configure", None)
    if t.record.status != "lobby" or configure is None:
        return False
    return bool(configure(e["options"]))


def _moved(t: TableState, e: Moved) -> bool:
    """Apply a slap game's ``move`` another process played: its moves fed to the kind."""
    feed = getattr(t.kind, "feed", None)
    if (feed is None or t.record.status != "playing" or t.kind.game.over
            or e["move"] != t.kind.steps() + 1):
        return False
    feed(e["moves"])
    play_step(t, e["seq"])
    return True


def _over(t: TableState, e: Over) -> bool:
    if not t.kind.game.over:
        return False
    t.record.status = "over"
    return True


def _auto_flip(t: TableState, e: AutoFlip) -> bool:
    t.record.seats[e["seat"]].auto_flip = e["on"]
    return True


def _handed(t: TableState, e: Handed) -> bool:
    rec = t.record.seats[e["seat"]]
    rec.kind, rec.secret_hash, rec.auto_flip = "computer", None, False
    return True


def _pace(t: TableState, e: PaceSet) -> bool:
    t.record.seats[e["seat"]].pace = e["pace"]
    return True


def _fast_forward(t: TableState, e: FastForward) -> bool:
    if t.record.status != "playing":
        return False
    t.skipping = True
    return True


def _left(t: TableState, e: Left) -> bool:
    rec = t.record.seats[e["seat"]]
    order = e.get("seating") or list(range(len(t.record.seats)))
    if (rec.kind != "human" or t.record.status == "over"
            or sorted(order) != list(range(len(t.record.seats)))
            or ("seating" in e and t.record.status != "lobby")):
        return False
    if t.record.status == "lobby":  # not dealt yet: the seat is free again
        lobby = t.record.seats  # the players after it move up (the order they came)
        t.record.seats = [dataclasses.replace(lobby[p], seat=s) for s, p in enumerate(order)]
        rec = t.record.seats[order.index(e["seat"])]
        rec.kind, rec.nickname = "open", None
    else:
        rec.kind = "left"
    rec.secret_hash, rec.auto_flip = None, False
    return True


def _relinked(t: TableState, e: Relinked) -> bool:
    return True  # the new secret hash is set by the table, never sent


def _rematch(t: TableState, e: Rematch) -> bool:
    if t.record.status != "over":
        return False
    t.rematch, t.rematch_by = e["game"], e["by"]
    return True


@dataclass(frozen=True)
class EventSpec:
    """One row of the registry (see the module docstring).

    Attributes:
        shape: the TypedDict of the message.
        apply: how a stored event changes a table (False: it does not fit
            the table's state); None for an ephemeral message.
        remote: whether a process that did not make the change can apply
            it from the message alone (a human's join and a new secret
            carry a secret hash that is never published).
        seats: whether saving it must write the seats too.
        handled: whether the game page acts on it (``relinked`` is not: the
            server closes the old connections of the seat instead, code 4001).
    """

    shape: type
    apply: Callable[[TableState, Mapping[str, object]], bool] | None = None
    remote: Callable[[Mapping[str, object]], bool] = lambda e: True
    seats: bool = True
    handled: bool = True

    @property
    def stored(self) -> bool:
        """True for numbered events (saved, replayed); False for ephemeral ones."""
        return self.apply is not None

    @property
    def doc(self) -> str:
        """One line of documentation (the shape's docstring)."""
        return " ".join((self.shape.__doc__ or "").split())


E = TypeVar("E", bound=Mapping[str, object])


def stored_row(shape: type[E], apply: Callable[[TableState, E], bool], *,
               remote: Callable[[Mapping[str, object]], bool] = lambda e: True,
               seats: bool = True, handled: bool = True) -> EventSpec:
    """The :data:`EVENTS` row of a stored event of ``shape`` applied by ``apply``
    (see :class:`EventSpec`); a step event of a new kind of play is
    ``EventSpec(Shape, step_apply, seats=False)``."""
    return EventSpec(shape, lambda t, e: apply(t, cast(E, e)), remote, seats, handled)


#: How a step event of any kind changes a table (:func:`play_step`).
step_apply = _step

#: Every message type, by its ``type``.
EVENTS: dict[str, EventSpec] = {
    "joined": stored_row(Joined, _joined, remote=lambda e: e.get("kind") != "human"),
    "started": stored_row(Started, _started),
    "flipped": stored_row(Flipped, _flipped, seats=False),
    "battle": EventSpec(Battle, step_apply, seats=False),
    "card": EventSpec(Card, step_apply, seats=False),
    "over": stored_row(Over, _over, seats=False),
    "auto_flip": stored_row(AutoFlip, _auto_flip),
    "handed": stored_row(Handed, _handed),
    "relinked": stored_row(Relinked, _relinked, remote=lambda e: False, handled=False),
    "rematch": stored_row(Rematch, _rematch),
    "pace": stored_row(PaceSet, _pace, seats=False),
    "fast_forward": stored_row(FastForward, _fast_forward, seats=False),
    "left": stored_row(Left, _left),
    # the slap games' (the page's handling comes with its own branch: handled=False)
    "options": stored_row(OptionsSet, _options, seats=False, handled=False),
    "move": stored_row(Moved, _moved, seats=False, handled=False),
    "presence": EventSpec(Online),
    "gone": EventSpec(Gone),
    "watchers": EventSpec(Watchers),
    "idle": EventSpec(Idle),
    "reaction": EventSpec(Reaction),
    "error": EventSpec(Error),
    "ping": EventSpec(Ping),
    "pong": EventSpec(Pong),
}


def browser_keys(kind: str) -> tuple[str, ...]:
    """The keys (besides ``type`` and ``seq``) a message of ``kind`` carries to a page.

    Raises:
        ValueError: ``kind`` is not in :data:`EVENTS`.
    """
    spec = EVENTS.get(kind)
    if spec is None:
        raise ValueError(f"unknown event type {kind!r}")
    return tuple(k for k in spec.shape.__annotations__ if k not in ("type", "seq"))


def apply_event(table: TableState, event: Mapping[str, object]) -> bool:
    """Apply the stored ``event`` (numbered ``table.record.seq + 1``) to ``table``.

    Returns:
        True when applied (``table.record.seq`` is now the event's), False
        when it does not fit (another number, another state, an ephemeral
        or unknown type): ``table`` is then unchanged.
    """
    spec = EVENTS.get(str(event.get("type")))
    if spec is None or spec.apply is None or event.get("seq") != table.record.seq + 1:
        return False
    if not spec.apply(table, event):
        return False
    table.record.seq = cast(int, event["seq"])
    return True


def follow(table: TableState, event: Mapping[str, object]) -> bool:
    """Apply ``event``, published by another process, to a cached ``table``.

    False (``table`` unchanged) for anything that cannot be applied from the
    message alone: the caller then loads the game again from the store.
    """
    spec = EVENTS.get(str(event.get("type")))
    if spec is None or not spec.remote(event):
        return False
    return apply_event(table, dict(event))


def seats_changed(events: list[Event]) -> bool:
    """True when saving ``events`` must write the game's seats too."""
    return any(EVENTS[e["type"]].seats for e in events)
