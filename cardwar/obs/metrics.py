"""Prometheus metrics for ``GET /metrics``, in one process or several.

The four numbers the site reports, and who updates them:

=====================================  ==========  ==========================================
metric                                 type        updated by
=====================================  ==========  ==========================================
``cardwar_games_in_progress``          gauge       :func:`set_games_in_progress` (site-wide n)
``cardwar_open_connections``           gauge       :func:`connection_opened` /
                                                   :func:`connection_closed` (this process)
``cardwar_battles_total{variant}``     counter     :func:`battle_played` (Peace, War)
``cardwar_cards_put_down_total{variant}``  counter :func:`card_put_down` (a game in
                                                   turns: Beggar-my-neighbour's steps)
``cardwar_flip_to_result_seconds``     histogram   :func:`battle_played` and
                                                   :func:`card_put_down` (``latency_s``)
``cardwar_stale_writes_total``         counter     :func:`stale_write`
``cardwar_tables_in_memory{status}``   gauge       :func:`set_tables_in_memory` (summed)
``cardwar_limited_total{what}``        counter     :func:`limited` (requests and sockets
                                                   refused by the per-client limits)
=====================================  ==========  ==========================================

How the server should call them:

- ``connection_opened()`` right after a WebSocket ``accept()``, and
  ``connection_closed()`` in the ``finally`` of that connection's handler
  (every opened connection is closed exactly once).
- ``battle_played(variant, latency_s)`` once per battle, in the process that
  played it (so never twice for one battle across processes). ``latency_s``
  is the time from receiving the flip that completed the battle to sending
  its result to that player (``time.perf_counter()`` difference); pass
  ``None`` for battles nobody waited for (timers, computer seats).
- ``card_put_down(variant, latency_s)`` likewise once per card put down in a
  game played in turns (Beggar-my-neighbour, RULES.md 10: its step is one
  card, not a battle, so it has a counter of its own); ``latency_s`` is then
  the time from the flip to sending that card.
- ``stale_write()`` each time a change is retried because another process
  changed the game first (its version check failed); a steady rise means
  the processes' caches lag behind each other.
- ``set_games_in_progress(n)`` with the *site-wide* number of games started
  and not finished (e.g. a count from the store), whenever a game starts or
  ends and on a timer every few seconds. With several processes, the most
  recent value written by a live process is reported.
- ``process_exiting()`` at the end of the app's lifespan (removes this
  process's live gauges in multiprocess mode; a no-op otherwise).

One process or several
-----------------------
Without ``PROMETHEUS_MULTIPROC_DIR`` the metrics live in this module's
:data:`REGISTRY` (with the usual ``process_*`` and ``python_*`` metrics).

With ``PROMETHEUS_MULTIPROC_DIR`` set *before Python starts* (prometheus-client
picks its storage at import time) to an existing, writable, empty-at-boot
directory shared by every server process on the host, each process writes its
values to files there and any process's ``/metrics`` answers for all of them:
counters and histograms are summed, ``cardwar_open_connections`` is summed
over live processes, ``cardwar_games_in_progress`` is the most recent value.
Files of processes that died without :func:`process_exiting` are cleaned up
(live gauges only) when the next process imports this module.
"""

from __future__ import annotations

import glob
import math
import os
import re
import warnings
from collections.abc import Mapping

from prometheus_client import (
    GC_COLLECTOR,
    PLATFORM_COLLECTOR,
    PROCESS_COLLECTOR,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    multiprocess,
    values,
)
from prometheus_client.exposition import choose_encoder

from cardwar.engine import VARIANTS

__all__ = [
    "BUCKETS",
    "KNOWN_VARIANTS",
    "MULTIPROCESS",
    "REGISTRY",
    "battle_played",
    "card_put_down",
    "connection_closed",
    "connection_opened",
    "metrics_response",
    "process_exiting",
    "set_games_in_progress",
    "stale_write",
]

#: Histogram buckets for flip-to-result latency, in seconds: 1 ms to 2 s,
#: densest around the 100 ms target.
BUCKETS: tuple[float, ...] = (
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1.0, 2.0,
)

#: Variants whose battle counters are exported (at 0) before any battle is
#: played: every battle game of the engine's list (one registered later gets
#: its counter with its first battle).
KNOWN_VARIANTS: tuple[str, ...] = tuple(n for n, v in VARIANTS.items() if v.play == "battles")
#: Variants played in turns, whose cards-put-down counters are exported at 0.
TURN_VARIANTS: tuple[str, ...] = tuple(n for n, v in VARIANTS.items() if v.play == "turns")

_MULTIPROC_DIR: str | None = os.environ.get("PROMETHEUS_MULTIPROC_DIR")

#: True when prometheus-client stores values in ``PROMETHEUS_MULTIPROC_DIR``.
MULTIPROCESS: bool = values.ValueClass is not values.MutexValue

if _MULTIPROC_DIR and not MULTIPROCESS:  # pragma: no cover - depends on import order
    warnings.warn(
        "PROMETHEUS_MULTIPROC_DIR was set after prometheus_client was imported; "
        "metrics stay per-process. Set it in the environment before starting Python.",
        RuntimeWarning,
        stacklevel=1,
    )

_LIVE_GAUGE_FILE = re.compile(r"gauge_live[a-z]+_(\d+)\.db$")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _clean_dead_processes(path: str) -> list[int]:
    """Remove the live-gauge files of processes that no longer run; return their pids."""
    dead = set()
    for name in glob.glob(os.path.join(path, "gauge_live*_*.db")):
        match = _LIVE_GAUGE_FILE.search(os.path.basename(name))
        if match and not _pid_alive(int(match.group(1))):
            dead.add(int(match.group(1)))
    for pid in sorted(dead):
        multiprocess.mark_process_dead(pid, path)  # type: ignore[no-untyped-call]
    return sorted(dead)


if MULTIPROCESS:
    if not _MULTIPROC_DIR or not os.path.isdir(_MULTIPROC_DIR):
        raise RuntimeError(
            f"PROMETHEUS_MULTIPROC_DIR={_MULTIPROC_DIR!r} is not an existing directory"
        )
    _clean_dead_processes(_MULTIPROC_DIR)

#: The registry the metrics are registered in. In multiprocess mode it is not
#: what ``/metrics`` shows: that is read from the files of every process.
REGISTRY = CollectorRegistry(auto_describe=True)
if not MULTIPROCESS:
    for _collector in (PROCESS_COLLECTOR, PLATFORM_COLLECTOR, GC_COLLECTOR):
        if _collector is not None:
            REGISTRY.register(_collector)

GAMES_IN_PROGRESS = Gauge(
    "cardwar_games_in_progress",
    "Games started and not yet finished, on the whole site.",
    registry=REGISTRY,
    multiprocess_mode="livemostrecent",
)
OPEN_CONNECTIONS = Gauge(
    "cardwar_open_connections",
    "Open WebSocket connections (summed over live server processes).",
    registry=REGISTRY,
    multiprocess_mode="livesum",
)
TABLES_IN_MEMORY = Gauge(
    "cardwar_tables_in_memory",
    "Game tables cached in memory by status: lobby, playing, over "
    "(summed over live server processes).",
    ["status"],
    registry=REGISTRY,
    multiprocess_mode="livesum",
)
LIMITED = Counter(
    "cardwar_limited",
    "Requests, sockets and messages refused by the per-client limits, by what was limited.",
    ["what"],
    registry=REGISTRY,
)
BATTLES = Counter(
    "cardwar_battles",
    "Battles played, by variant.",
    ["variant"],
    registry=REGISTRY,
)
CARDS_PUT_DOWN = Counter(
    "cardwar_cards_put_down",
    "Cards put down in games played in turns (Beggar-my-neighbour), by variant.",
    ["variant"],
    registry=REGISTRY,
)
FLIP_TO_RESULT = Histogram(
    "cardwar_flip_to_result_seconds",
    "Seconds from receiving the flip that completes a battle (or puts down a card, "
    "in a game in turns) to sending its result.",
    buckets=BUCKETS,
    registry=REGISTRY,
)
STALE_WRITES = Counter(
    "cardwar_stale_writes",
    "Changes retried because another server process changed the game first.",
    registry=REGISTRY,
)
for _variant in KNOWN_VARIANTS:
    BATTLES.labels(variant=_variant)
for _variant in TURN_VARIANTS:
    CARDS_PUT_DOWN.labels(variant=_variant)


def stale_write() -> None:
    """Count one change retried after a lost version check (see the module docstring)."""
    STALE_WRITES.inc()


def battle_played(variant: str, latency_s: float | None = None) -> None:
    """Count one battle of ``variant`` and record its flip-to-result latency.

    Args:
        variant: the variant's name, e.g. ``"peace"`` or ``"war"`` (a label value:
            keep it to the site's few variants).
        latency_s: seconds from the completing flip to the result being sent,
            or ``None`` when no player waited (timer or computer flips): then only
            the counter moves.

    Raises:
        ValueError: ``variant`` is empty, or ``latency_s`` is negative or not finite.
    """
    _step(BATTLES, variant, latency_s)


def card_put_down(variant: str, latency_s: float | None = None) -> None:
    """Count one card put down in ``variant``, a game played in turns
    (``cardwar_cards_put_down_total``), and record its flip-to-result latency.

    Args and errors as :func:`battle_played`.
    """
    _step(CARDS_PUT_DOWN, variant, latency_s)


def _step(counter: Counter, variant: str, latency_s: float | None) -> None:
    if not variant:
        raise ValueError("variant must be a non-empty string")
    if latency_s is not None and (not math.isfinite(latency_s) or latency_s < 0):
        raise ValueError(f"latency_s must be a finite number >= 0, not {latency_s!r}")
    counter.labels(variant=variant).inc()
    if latency_s is not None:
        FLIP_TO_RESULT.observe(latency_s)


def set_tables_in_memory(by_status: Mapping[str, int]) -> None:
    """Report how many tables this process keeps cached: status -> count (>= 0),
    every status given (a status left out keeps its last count)."""
    for status, n in by_status.items():
        TABLES_IN_MEMORY.labels(status=status).set(n)


def limited(what: str) -> None:
    """Count one refusal by a per-client limit: ``what`` is ``create``, ``join``,
    ``rematch``, ``socket`` or ``flood`` (a label value: keep to these few)."""
    LIMITED.labels(what=what).inc()


def connection_opened() -> None:
    """Count one more open WebSocket connection in this process."""
    OPEN_CONNECTIONS.inc()


def connection_closed() -> None:
    """Count one WebSocket connection of this process as closed (call once per open)."""
    OPEN_CONNECTIONS.dec()


def set_games_in_progress(n: int) -> None:
    """Report the site-wide number of games in progress.

    Args:
        n: games started and not finished, across every process (>= 0).

    Raises:
        ValueError: ``n`` is negative.
    """
    if n < 0:
        raise ValueError(f"games in progress cannot be negative, not {n}")
    GAMES_IN_PROGRESS.set(n)


def process_exiting() -> None:
    """Drop this process's live gauges from the shared directory (multiprocess mode).

    Call once at shutdown (end of the lifespan); a no-op in single-process mode.
    """
    if MULTIPROCESS and _MULTIPROC_DIR:
        multiprocess.mark_process_dead(os.getpid(), _MULTIPROC_DIR)  # type: ignore[no-untyped-call]


def _collecting_registry() -> CollectorRegistry:
    if not MULTIPROCESS:
        return REGISTRY
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=_MULTIPROC_DIR)  # type: ignore[no-untyped-call]
    return registry


def metrics_response(accept: str | None = None) -> tuple[bytes, str]:
    """Render every metric in a Prometheus exposition format.

    Args:
        accept: the scraper's ``Accept`` header; ``application/openmetrics-text``
            selects OpenMetrics, anything else (or ``None``) the classic text format.

    Returns:
        ``(body, content_type)``, e.g. ``(b"# HELP cardwar_battles_total ...",
        "text/plain; version=0.0.4; charset=utf-8")``. In multiprocess mode the
        body aggregates every process that wrote to ``PROMETHEUS_MULTIPROC_DIR``.

    Raises:
        OSError: the multiprocess directory cannot be read.
    """
    encoder, content_type = choose_encoder(accept or "")
    return encoder(_collecting_registry()), content_type
