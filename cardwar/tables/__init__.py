"""Online play as a domain: tables (game rooms), seats, secrets, flips, timers.

* :class:`Table` - one game room, pure and synchronous: it applies joins,
  starts and flips to the engine and emits numbered events.
* :class:`TableService` - the async shell around tables: the store, the bus,
  per-game locks, flip-for-idle and computer timers, presence.
* :func:`view_message` - the ONE function that builds every message a
  browser receives, from (table, viewer) or (event, viewer).

Nothing here knows about HTTP.
"""

from .nicknames import MAX_NICKNAME, NicknameError, clean_nickname
from .secrets import hash_secret, new_game_id, new_secret
from .service import TableService
from .stacked import stacked_hands
from .table import Table, TableError, replay_command
from .views import view_message

__all__ = [
    "MAX_NICKNAME", "NicknameError", "clean_nickname", "hash_secret", "new_game_id",
    "new_secret", "TableService", "stacked_hands", "Table", "TableError", "replay_command",
    "view_message",
]
