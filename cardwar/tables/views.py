"""The one function that builds every message a browser receives.

:func:`view_message` turns (table, viewer) into a full ``state`` message, or
(event, viewer) into an event message (:func:`event_view`, which needs no
table). Nothing else writes to a socket, so
this is where secrets are kept in: pile order never appears, the seed and
the stacked hands only once the game is over, seat secrets never.

``state`` shape::

    {"type": "state", "seq": 12, "you": 0 | None,
     "game": {<engine seat_view: "viewer", "battle", "counts", "in_play", "eliminated",
              "pot", "outcome", "reason", "winner"; in turns also "to_move", "owed",
              "owed_for", "court_seat", "pile", "top", "tricks" (``battle`` counts
              cards put down); in a slap game those and "cards_played", "window",
              "slaps", "burned", "out", "options", "patterns", "window_ms",
              "latency_cap_ms" (``battle`` counts ``move`` events)>, "id", "variant", "players",
              "face_down", "tie_word", "battle_limit", "status", "commitment", "flipped",
              "creator", "rematch", "rematch_by", "seating", "skipping", "vs_computer"},
     "seats": [{"seat", "kind", "nickname", "number", "online", "auto_flip", "pace",
                "gone"}],
     "watchers": 2, "idle": 7.5 | None,
     "last": <battle or card event> | None, "result": <over event data> | None}

An event's message is the same for every viewer (only the snapshot depends
on who asks): the sockets encode it once for all of them
(``cardwar.web.frames``).

A seat's ``kind`` is ``open``, ``human``, ``computer``, ``reserved`` (in a
rematch's lobby: kept for the former player named by ``nickname``) or ``left``
(its player left: the computer plays it). ``game.skipping``: a player who is
out fast-forwarded the game; ``game.peace_show``: seconds a peace is shown at
the normal pace. ``game.vs_computer``: one human plays against computers only
(no lobby to wait in, no reactions bar). A seat's ``number`` is its lobby seat
plus one, kept when the seats are drawn: a computer is called "Computer
{number}" at the table as it was in the lobby.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from cardwar.bus import Message

from .errors import ErrorCode
from .events import browser_keys
from .table import Table


def event_view(event: Message, *, ended: bool, watchers: int = 0) -> dict[str, Any]:
    """The message every viewer receives for ``event``: :func:`view_message`'s
    event half, which needs no table (a socket sends a step's event without
    looking its table up).

    Args:
        event: a message of :data:`cardwar.tables.events.EVENTS`.
        ended: the game is over; an ``over`` event of a game that is not
            shows no seed, hands nor command (defence in depth).
        watchers: the spectators connected on every process (``watchers``).

    Raises:
        ValueError: an event type this function does not know.
    """
    keys = browser_keys(event["type"])
    msg: dict[str, Any] = {"type": event["type"], "seq": event.get("seq")}
    msg.update({k: event[k] for k in keys if k in event})
    if event["type"] == "over" and not ended:  # defence in depth
        msg["seed"] = msg["hands"] = msg["command"] = None
    if event["type"] == "error" and not isinstance(msg.get("code"), str):
        msg["code"] = ErrorCode.BAD_MESSAGE.value
    if event["type"] == "watchers":  # a process publishes its own count: send the sum
        msg["count"] = watchers
    return msg


def view_message(
    table: Table,
    viewer: int | None,
    event: Message | None = None,
    online: Collection[int] = (),
    gone: Collection[int] = (),
    watchers: int = 0,
    idle: float | None = None,
) -> dict[str, Any]:
    """Build the message ``viewer`` (a seat, or None for a spectator) receives.

    Args:
        table: the table the message is about.
        viewer: the seat of the connection, or None.
        event: a message of :data:`cardwar.tables.events.EVENTS` (its keys
            for a page: :func:`~cardwar.tables.events.browser_keys`); None
            for a full ``state`` snapshot.
        online: seats with at least one open connection (for the snapshot).
        gone: seats whose player has been away longer than ``gone_after``
            and is played for (for the snapshot).
        watchers: how many spectators are connected, on every server process
            (for the snapshot and for ``watchers`` events).
        idle: seconds left on the coming battle's idle clock, None when it has
            not started (nobody waiting yet).

    Returns:
        A JSON-ready dict with ``type`` and ``seq`` (shapes in the module docstring).

    Raises:
        ValueError: an event type this function does not know.
    """
    if event is not None:
        return event_view(event, ended=table.status == "over", watchers=watchers)
    record = table.record
    lobby = table.seating() if record.status != "lobby" else list(range(record.players))
    last = None
    if table.last_json is not None:
        last = {**table.last_json, "seq": None}
    return {
        "type": "state",
        "seq": record.seq,
        "you": viewer,
        "game": {
            **table.kind.view(viewer),  # the engine's view: counts, never order
            "id": record.id,
            "variant": record.variant,
            "players": record.players,
            "face_down": record.face_down,
            "tie_word": table.variant.tie_word,
            "battle_limit": table.variant.battle_limit,
            "status": record.status,
            "commitment": record.commitment,
            "flipped": list(record.flipped),
            "creator": table.creator,
            "rematch": table.rematch,
            "rematch_by": table.rematch_by,
            "seating": table.seating() if record.status != "lobby" else None,
            "skipping": table.skipping,
            "vs_computer": vs_computer(table),
        },
        "seats": [
            {"seat": s.seat, "kind": s.kind, "nickname": s.nickname,
             "number": lobby[s.seat] + 1,
             "online": s.kind in ("computer", "left") or s.seat in online,
             "auto_flip": s.auto_flip, "pace": s.pace,
             "gone": s.kind == "human" and s.seat in gone}
            for s in record.seats
        ],
        "watchers": watchers,
        "idle": None if idle is None else round(idle, 1),
        "last": last,
        "result": table.result() if table.status == "over" else None,
    }


def vs_computer(table: Table) -> bool:
    """True when exactly one seat of ``table`` is a human's and every other one a
    computer's (or its player left): a game against the computer."""
    kinds = [s.kind for s in table.record.seats]
    return kinds.count("human") == 1 and all(k in ("human", "computer", "left") for k in kinds)
