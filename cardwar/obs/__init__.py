"""Operations: Prometheus metrics (:mod:`.metrics`) and structured logs (:mod:`.logs`).

Nothing here knows about games beyond a few numbers the server reports; the
web layer calls the functions of :mod:`cardwar.obs.metrics` when something
happens and mounts :func:`cardwar.web.metrics.metrics_endpoint` at
``/metrics``; :func:`cardwar.obs.logs.configure_logging` and
:class:`cardwar.obs.logs.RequestIdMiddleware` set up logging once per process.
"""

from __future__ import annotations

from .logs import RequestIdMiddleware, configure_logging, request_id
from .metrics import (
    battle_played,
    card_put_down,
    connection_closed,
    connection_opened,
    limited,
    metrics_response,
    process_exiting,
    set_games_in_progress,
    set_tables_in_memory,
    stale_write,
)

__all__ = [
    "RequestIdMiddleware",
    "battle_played",
    "card_put_down",
    "configure_logging",
    "connection_closed",
    "connection_opened",
    "limited",
    "metrics_response",
    "process_exiting",
    "request_id",
    "set_games_in_progress",
    "set_tables_in_memory",
    "stale_write",
]
