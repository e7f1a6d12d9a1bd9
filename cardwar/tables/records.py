"""What the table service keeps, and the store it keeps it in (the port).

* :class:`GameRecord` - one game: deal, progress (``steps``: battles, or cards
  put down in turns; the wire's events keep ``battle`` for the step's number,
  the pages' word; ``flipped``),
  ``seq`` (last event number), its :class:`SeatRecord` list, whether it is
  listed publicly and its creator's language.
* :class:`StoredEvent` - ``(seq, type, data)``; ``data`` is JSON-ready.
* :class:`GameStore` - the interface :class:`~cardwar.store.Store`
  implements (SQLAlchemy stays on the other side of it).
* :class:`StaleWriteError` - a save lost its version check.

Writes are optimistic: :meth:`GameStore.save` only succeeds when the stored
``seq`` is still the one the caller loaded, so two processes can never both
play the same battle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol


class StaleWriteError(RuntimeError):
    """The game changed in the store since it was loaded (optimistic lock lost)."""


@dataclass(slots=True)
class SeatRecord:
    """One seat as stored: ``kind`` is ``"open"``, ``"reserved"``, ``"human"``,
    ``"computer"`` or ``"left"`` (a player who left: the computer plays it; a reserved
    seat keeps ``nickname`` for a rematch's former player, a left one its player's)."""

    seat: int
    kind: str = "open"
    nickname: str | None = None
    secret_hash: str | None = None
    auto_flip: bool = False
    #: the player's pace of automatic flips (``slow``, ``normal``, ``fast``); kept
    #: in memory and in the ``pace`` events, not in the seats table (a restart
    #: brings every seat back to ``normal``)
    pace: str = "normal"


@dataclass(slots=True)
class GameRecord:
    """One game as stored (see the module docstring)."""

    id: str
    variant: str
    players: int
    face_down: int
    seed: str | None
    hands: str | None
    commitment: str
    status: str = "lobby"
    steps: int = 0
    flipped: list[int] = field(default_factory=list)
    seq: int = 0
    seats: list[SeatRecord] = field(default_factory=list)
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    #: listed on the open tables page (its creator ticked it)
    public: bool = False
    #: the creator's language (link previews, the open tables page)
    locale: str = "en"
    #: when it was last changed or touched (a page opened or closed in the lobby);
    #: None for a record not read from the store
    updated_at: datetime | None = None
    #: the stored events a kind of play needs to rebuild the game (the slap games:
    #: ``options`` and ``move``, :func:`cardwar.tables.slap_kind.load_record`); not a
    #: column, None when not loaded (then read once by the kind and let go)
    history: list[StoredEvent] | None = None


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """A numbered event: ``type`` plus JSON-ready ``data``."""

    seq: int
    type: str
    data: dict[str, Any]


class GameStore(Protocol):
    """Where games, their seats and their numbered events are kept."""

    async def create(self, game: GameRecord, events: list[StoredEvent]) -> None:
        """Insert a new game with its seats and first events."""
        ...

    async def load(self, game_id: str) -> GameRecord | None:
        """The game ``game_id`` with its seats, or None if there is none."""
        ...

    async def save(self, game: GameRecord, events: list[StoredEvent], expected_seq: int,
                   *, seats: bool = True) -> None:
        """Write ``game`` and append ``events`` if the stored ``seq`` is ``expected_seq``.

        Raises:
            StaleWriteError: it is not (another process changed the game).
        """
        ...

    async def events_since(self, game_id: str, seq: int) -> list[StoredEvent]:
        """The events of ``game_id`` numbered above ``seq``, in order."""
        ...

    async def list_open(self, since: datetime, limit: int) -> list[GameRecord]:
        """Public games in the lobby with a free seat, created at ``since`` or later,
        the longest waiting first (oldest ``created_at``), at most ``limit``, with
        their seats (secret hashes left out)."""
        ...

    async def remove(self, game_ids: list[str]) -> int:
        """Delete these games with their seats and events; how many there were."""
        ...

    async def expired(self, lobby_before: datetime, over_before: datetime | None,
                      limit: int) -> list[str]:
        """Up to ``limit`` ids of games in the lobby last active before ``lobby_before``
        and of finished games last changed before ``over_before`` (None: none)."""
        ...

    async def retire(self, game_ids: list[str]) -> int:
        """Delete the seats and events of these games and keep each as a tombstone
        (status ``expired``: its link says it expired); how many there were."""
        ...

    async def tombstones(self, before: datetime, limit: int) -> list[str]:
        """Up to ``limit`` ids of tombstones (:meth:`retire`) made before ``before``."""
        ...

    async def was_expired(self, game_id: str) -> bool:
        """True when ``game_id`` is a tombstone (:meth:`retire`): it existed, and expired."""
        ...

    async def touch(self, game_ids: list[str]) -> None:
        """Note activity in these games if they are in the lobby (a page opened or
        closed): their lobby expiry counts from now."""
        ...

    async def count_playing(self) -> int:
        """How many games are being played now, site-wide."""
        ...

    async def close(self) -> None:
        """Finish pending writes and release connections."""
        ...
