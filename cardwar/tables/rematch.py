"""Rematch: a new game with the same seats and options, one click each.

The first seated player to ask creates the new game: same variant, number
of players and face-down count, a fresh deal, and the old game's *lobby*
again: everyone (computers too) in the lobby seat they had before the seats
were drawn, so a computer keeps its number ("Computer 2" stays Computer 2)
and the new draw seats everyone afresh (names follow the player, not the
table seat). Every other player's seat is
*reserved* for them (seat kind ``reserved`` with their nickname): nobody else
can take it, nor that nickname, through the public join. The old game records
the offer (a ``rematch`` event, so every browser shows it). Every other player
of the old game joins the new game in their own old lobby seat with the same click;
once no seat is open or reserved any more the new game starts by itself. The
creator may start earlier: the computer plays the seats still reserved. A
rematch against the computer only starts at once. Every player keeps their
pace and auto-flip.

One rematch per game, however often and however fast it is asked for: the
requests of one process for one game take turns (a lock), and a new game
that lost the race with another process's is removed again.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import cast

from .errors import ErrorCode, TableError
from .events import Pace
from .secrets import hash_secret, new_secret
from .service import TableService
from .slap_kind import SlapKind
from .table import Table


async def known_rematch(service: TableService, table: Table) -> str | None:
    """The id of the rematch offered after ``table``'s game, or None.

    A table rebuilt from the store does not know it yet: it is read from the
    game's stored events (the ``rematch`` event comes after ``over``).
    """
    if table.rematch is None and table.status == "over":
        for event in await service.store.events_since(table.id, max(0, table.seq - 50)):
            if event.type == "rematch":
                table.rematch = str(event.data["game"])
                by = event.data.get("by")
                table.rematch_by = by if isinstance(by, int) else None
    return table.rematch


async def _create(service: TableService, old: Table, seat: int) -> tuple[Table, str]:
    """The rematch of ``old``, offered by ``seat`` (a table seat of ``old``): same
    options, a fresh deal, everyone in their old lobby seat (:func:`lobby_seat`)."""
    record = old.record
    lobby = old.seating()
    computers = tuple(lobby[s.seat] for s in record.seats
                      if s.kind in ("computer", "left") and s.seat != seat)
    reserved = {lobby[s.seat]: s.nickname for s in record.seats
                if s.kind == "human" and s.seat != seat and s.nickname}
    return await service.create(
        record.variant, record.players, face_down=record.face_down, computers=computers,
        nickname=record.seats[seat].nickname or "", creator_seat=lobby[seat],
        reserved=reserved, locale=record.locale,
        options=old.kind.options() if isinstance(old.kind, SlapKind) else None)


def lobby_seat(old: Table, seat: int) -> int:
    """The seat in the rematch's lobby of the player at table seat ``seat`` of
    ``old`` (a finished game): the lobby seat they had in ``old`` (RULES.md 9,
    Seating), so a computer's number and everyone's place in the lobby stay."""
    return old.seating()[seat]


def keep_choices(new: Table, old: Table, seat: int) -> None:
    """The pace and auto-flip of table seat ``seat`` in ``old`` carried over to
    ``new``, its rematch (the player is seated in ``new`` already, in
    :func:`lobby_seat`)."""
    rec = old.record.seats[seat]
    mine = lobby_seat(old, seat)
    new.set_pace(mine, cast(Pace, rec.pace))
    new.set_auto(mine, rec.auto_flip)


#: One lock per finished game being asked for a rematch (gone once nobody waits).
_asking: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()


async def rematch(service: TableService, game_id: str, seat: int | None) -> tuple[str, str]:
    """Offer the rematch of ``game_id`` or join the one offered, for ``seat``.

    Args:
        service: the table service.
        game_id: the finished game.
        seat: the asker's seat in that game (None for a spectator).

    Returns:
        (the new game's id, the asker's secret in it).

    Raises:
        TableError: ``no_game``; ``not_over`` while the game goes on;
            ``not_seated`` for a spectator or a seat the computer played;
            ``seat_taken`` (already joined), ``not_lobby`` (the rematch has
            started without them).
    """
    old = await service.get(game_id)
    if old is None:
        raise TableError(ErrorCode.NO_GAME)
    if old.status != "over":
        raise TableError(ErrorCode.NOT_OVER)
    if seat is None or old.record.seats[seat].kind != "human":
        raise TableError(ErrorCode.NOT_SEATED)
    lock = _asking.get(game_id)
    if lock is None:
        lock = _asking[game_id] = asyncio.Lock()
    async with lock:
        return await _offer_or_join(service, game_id, old, seat)


async def _offer_or_join(service: TableService, game_id: str, old: Table,
                         seat: int) -> tuple[str, str]:
    offered = await known_rematch(service, old)
    if offered is None:
        new, secret = await _create(service, old, seat)
        try:
            await service.apply(game_id, lambda t: t.offer_rematch(seat, new.id))
        except TableError:
            await service.store.remove([new.id])  # another process was quicker
            service.cache.drop(new.id)
            offered = await known_rematch(service, old)
            if offered is None:
                raise
        else:
            await service.apply(new.id, lambda t: keep_choices(t, old, seat))
            await service.start_if_alone(await service.get(new.id) or new)
            return new.id, secret
    nickname = old.record.seats[seat].nickname or ""
    secret = new_secret()

    def join(t: Table) -> None:
        t.join(nickname, hash_secret(secret), lobby_seat(old, seat))
        keep_choices(t, old, seat)

    table, _ = await service.apply(offered, join)
    if not table.open_seats() and not table.reserved_seats() and table.status == "lobby":
        await service.start(offered, table.creator)
    return offered, secret
