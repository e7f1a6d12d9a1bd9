"""Keep a cached :class:`Table` in step with events another process published.

With several server processes a table cached here goes stale when another
process changes its game. Most events can be applied to the cached table
directly (the deal is fixed, so playing the next battle gives the same
result everywhere); :func:`advance` does that, and says False for anything
it cannot apply, in which case the caller reloads the table from the store.
"""

from __future__ import annotations

from typing import Any

from .table import Table


def advance(table: Table, event: dict[str, Any]) -> bool:
    """Apply ``event`` (numbered ``table.seq + 1``) to ``table``; False if it cannot.

    Handled: ``flipped``, ``battle``, ``over``, ``auto_flip``, ``started``,
    ``rematch`` (so a second offer is refused everywhere), computer ``joined``
    events and reserved ``joined`` events in the lobby (a reserved seat has no
    secret: the event holds all of it). Anything else (a
    human joining: the seat's secret hash is not in the event; event types
    added later) returns False without changing the table.
    """
    if event.get("seq") != table.seq + 1:
        return False
    rec = table.record
    kind = event.get("type")
    coming = table.game.battles + 1
    if kind == "flipped":
        if table.status != "playing" or event.get("battle") != coming:
            return False
        rec.flipped = sorted({*rec.flipped, int(event["seat"])})
    elif kind == "battle":
        if table.status != "playing" or event.get("battle") != coming or table.game.over:
            return False
        result = table.game.play_battle()
        table.last = result
        rec.battles = result.number
        rec.flipped = []
    elif kind == "over":
        if not table.game.over:
            return False
        rec.status = "over"
    elif kind == "auto_flip":
        rec.seats[int(event["seat"])].auto_flip = bool(event["on"])
    elif kind == "joined" and event.get("kind") == "computer":
        seat = rec.seats[int(event["seat"])]
        seat.kind, seat.nickname, seat.secret_hash = "computer", None, None
    elif kind == "joined" and event.get("kind") == "reserved":
        nickname = event.get("nickname")
        if table.status != "lobby" or not isinstance(nickname, str):
            return False
        seat = rec.seats[int(event["seat"])]
        seat.kind, seat.nickname, seat.secret_hash = "reserved", nickname, None
    elif kind == "started":
        if table.status != "lobby":
            return False
        rec.status = "playing"
        rec.flipped = []
    elif kind == "rematch":
        if table.status != "over" or not isinstance(event.get("game"), str):
            return False
        table.rematch = event["game"]
        by = event.get("by")
        table.rematch_by = by if isinstance(by, int) else None
    else:
        return False
    rec.seq = int(event["seq"])
    return True
