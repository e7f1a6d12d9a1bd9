"""Open tables: public games in the lobby, listed live for anyone to join.

A creator may list a game publicly (:attr:`GameRecord.public`). While it is
in the lobby with a free seat and younger than ``settings.open_table_ttl``
it is *open*: the open tables page shows it (:meth:`OpenTables.current`,
from the store, so every server process lists the same tables). Every
change of a public table in the lobby is published on the bus channel
:data:`CHANNEL` (``listed`` with the table as the page shows it, or
``unlisted`` once it is full, started or gone), so the pages of every
process follow it live; a table that reaches its age limit is dropped by
the pages themselves (each entry says when, ``expires``). Unlisted games
never appear: nothing about them is ever published there.

Nothing secret or personal is listed: no nickname, no seat secret, only
the variant, the seats, the creator's language and the waiting time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal, TypedDict

from cardwar.bus import Bus
from cardwar.settings import Settings

from .events import Event
from .records import GameRecord, GameStore
from .table import Table

#: The bus "game id" of the open tables (game ids are 16 characters: no clash).
CHANNEL = "open-tables"
#: Most tables the page lists at first (the longest waiting; later ones arrive live).
MAX_LISTED = 50


class OpenTable(TypedDict):
    """One open table as the page lists it."""

    id: str
    variant: str
    players: int
    seated: int
    free: int
    locale: str
    waiting: float
    expires: float


class Tables(TypedDict):
    """The open tables (at most :data:`MAX_LISTED`, the longest waiting): the
    first message of the socket."""

    type: Literal["tables"]
    seq: None
    tables: list[OpenTable]


class Listed(TypedDict):
    """A table opened, or its seats changed: add or replace it."""

    type: Literal["listed"]
    seq: None
    table: OpenTable


class Unlisted(TypedDict):
    """A table is full, started or gone: take it off."""

    type: Literal["unlisted"]
    seq: None
    id: str


@dataclass(frozen=True)
class ListingMessage:
    """One row of :data:`MESSAGES` (for PROTOCOL.md)."""

    shape: type

    @property
    def doc(self) -> str:
        """One line of documentation (the shape's docstring)."""
        return " ".join((self.shape.__doc__ or "").split())


#: What the open tables socket (``WS /ws/tables``) sends, by ``type``.
MESSAGES: dict[str, ListingMessage] = {
    "tables": ListingMessage(Tables),
    "listed": ListingMessage(Listed),
    "unlisted": ListingMessage(Unlisted),
}


def open_table(record: GameRecord, now: datetime, ttl: float) -> OpenTable | None:
    """``record`` as the open tables page lists it at ``now``, or None when it
    is not open (not public, not in the lobby, no free seat, older than ``ttl``)."""
    free = sum(1 for s in record.seats if s.kind == "open")
    waiting = max(0.0, (now - record.created_at).total_seconds())
    if not record.public or record.status != "lobby" or not free or waiting >= ttl:
        return None
    return OpenTable(id=record.id, variant=record.variant, players=record.players,
                     seated=sum(1 for s in record.seats if s.kind in ("human", "computer")),
                     free=free, locale=record.locale, waiting=round(waiting, 1),
                     expires=round(ttl - waiting, 1))


class OpenTables:
    """The open tables of the site, for the pages of this process.

    Args:
        store: where the games are (the list comes from it).
        bus: where changes are published (:data:`CHANNEL`).
        settings: ``open_table_ttl``.
    """

    def __init__(self, store: GameStore, bus: Bus, settings: Settings) -> None:
        self.store = store
        self.bus = bus
        self.ttl = settings.open_table_ttl

    async def current(self, now: datetime | None = None) -> list[OpenTable]:
        """The open tables, the longest waiting first (at most :data:`MAX_LISTED`)."""
        now = now or datetime.now(UTC)
        records = await self.store.list_open(now - timedelta(seconds=self.ttl), MAX_LISTED)
        found = (open_table(r, now, self.ttl) for r in records)
        return [t for t in found if t is not None]

    async def changed(self, table: Table, events: Sequence[Event] = ()) -> None:
        """``table`` was created or changed by ``events``: if it is public and
        that may change the list, publish it (``listed``) or its leaving
        (``unlisted``)."""
        record = table.record
        if not record.public:
            return
        if record.status != "lobby" and not any(e["type"] == "started" for e in events):
            return  # off the list already: a game being played changes nothing here
        listed = open_table(record, datetime.now(UTC), self.ttl)
        if listed is None:
            await self.bus.publish(CHANNEL, Unlisted(type="unlisted", seq=None, id=record.id))
        else:
            await self.bus.publish(CHANNEL, Listed(type="listed", seq=None, table=listed))
