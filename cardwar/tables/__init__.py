"""Online play as a domain: tables (game rooms), seats, secrets, flips, timers.

* :class:`Table` - one game room, pure and synchronous: it applies joins,
  starts and flips to the engine and emits numbered events.
* :mod:`.events` and :mod:`.errors` - the registry of every message type
  (shape, how it changes a table, docs) and of every error code.
* :class:`TableService` - the async shell around tables: it applies a
  change (:meth:`TableService.apply`) under the game's lock, saves it in the
  store and publishes it on the bus; its parts are the cache (:mod:`.cache`),
  the timers (:mod:`.clocks`), who is connected (:mod:`.presence`) and the
  other server processes (:mod:`.cluster`).
* :func:`view_message` - the ONE function that builds every message a
  browser receives, from (table, viewer) or (event, viewer).

Nothing here knows about HTTP or SQL: the store is behind
:class:`~cardwar.tables.records.GameStore`.
"""

from .errors import ErrorCode, TableError
from .nicknames import MAX_NICKNAME, NicknameError, clean_nickname
from .records import GameRecord, GameStore, SeatRecord, StaleWriteError, StoredEvent
from .secrets import hash_secret, new_game_id, new_secret
from .service import TableService
from .slap_kind import load_record
from .stacked import stacked_hands
from .table import Table, replay_command
from .views import event_view, view_message

__all__ = [
    "MAX_NICKNAME",
    "ErrorCode",
    "GameRecord",
    "GameStore",
    "NicknameError",
    "SeatRecord",
    "StaleWriteError",
    "StoredEvent",
    "Table",
    "TableError",
    "TableService",
    "clean_nickname",
    "event_view",
    "hash_secret",
    "load_record",
    "new_game_id",
    "new_secret",
    "replay_command",
    "stacked_hands",
    "view_message",
]
