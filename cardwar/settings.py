"""Server settings, from command-line flags or ``CARDWAR_*`` environment variables."""

from __future__ import annotations

import re

from pydantic import NonNegativeFloat, PositiveFloat, PositiveInt, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

#: Host names a local site always answers to.
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1", "[::1]")


#: A host with a port: ``name:8443`` or ``[::1]:8443`` (a bare IPv6 address has no port).
_WITH_PORT = re.compile(r"^(?:\[[^\]]*\]|[^:\[\]]+):\d*$")


def names(value: str) -> list[str]:
    """The non-empty comma-separated items of ``value``, stripped."""
    return [item.strip() for item in value.split(",") if item.strip()]


class Settings(BaseSettings):
    """Everything a running site can be told.

    Every field can be set from the environment as ``CARDWAR_<FIELD>``,
    e.g. ``CARDWAR_DATABASE=postgresql+asyncpg://...``.

    Attributes:
        database: SQLAlchemy URL of the game store (default: SQLite file under ./var).
        redis: Redis URL for live events across processes, or None (one process).
        redis_prefix: prefix of the Redis channel names (sites sharing one Redis).
        flip_timeout: seconds before a player who has not flipped is flipped for.
        gone_after: seconds before a disconnected player is played for.
        heartbeat: seconds between WebSocket pings (a silent socket is closed after 3).
        computer_delay: seconds a computer seat waits before it flips (at the normal
            pace; slow and fast scale it, see cardwar.tables.clocks).
        peace_show: seconds a battle with a peace stays on the table before any
            automatic flip, at the normal pace (slow 1.5x, fast 0.75x).
        idle_away: battles in a row a seated player's idle clock may run out
            before the seat is marked away and played for.
        presence_ttl: with several processes, seconds after which the players and
            spectators of a process that stopped without saying so (killed, its
            machine gone) are shown offline.
        open_table_ttl: seconds a public table waits on the open tables page before it
            leaves the list (unless it fills or starts first).
        allowed_hosts: the ``Host`` names (or ``*.example.org``) this site answers to,
            comma-separated, without a port (refused: the port is not compared);
            any other gets 400. The loopback names are always
            allowed; empty: also the address ``serve`` binds to (:meth:`hosts`).
        trusted_proxies: addresses (comma-separated, or ``*``) whose
            ``X-Forwarded-For`` / ``X-Forwarded-Proto`` are believed (nginx on this
            machine); a client's own header is ignored.
        tables_in_memory: most tables one process keeps cached (the oldest used go).
        table_idle: seconds a cached table nobody used stays in memory.
        creates_per_minute: games one client address may create per minute (then 429).
        joins_per_minute: seats one client address may take per minute.
        rematches_per_minute: rematches one client address may ask for per minute.
        sockets_per_address: sockets one client address may hold open at once (counted
            in Redis when it is configured: every process together).
        sockets_per_game: sockets one game accepts (seats and spectators) per process.
        flood_warnings: ``rate_limited`` warnings a socket gets before it is closed (1008).
        lobby_ttl: seconds a game that never starts is kept (then removed with its events).
        finished_ttl: seconds a finished game is kept (its replay and download);
            0 keeps them for ever.
        sweep_interval: seconds between the removals of expired lobbies and games.
        commit: the short commit shown in the footer when git is not available.
        debug_logs: loggers (comma-separated) ``serve`` writes at DEBUG level too,
            e.g. ``cardwar.presence`` (who is said online or offline, and why).
        testing_stacked_deck: test-only: deal a short stacked deck (never in production).
        testing_seed: test-only: the seed of every new game, so its seating is
            known (never in production).
        testing_slap_online: test-only: tables of the slap games (ers, slapjack)
            may be created online before their variants are (``online=False``:
            their page is not finished).
    """

    model_config = SettingsConfigDict(env_prefix="CARDWAR_", extra="ignore")

    database: str = "sqlite+aiosqlite:///./var/cardwar.db"
    redis: str | None = None
    redis_prefix: str = "cardwar:"
    flip_timeout: PositiveFloat = 10.0
    gone_after: PositiveFloat = 120.0
    heartbeat: PositiveFloat = 20.0
    computer_delay: NonNegativeFloat = 0.8
    peace_show: NonNegativeFloat = 3.0
    idle_away: PositiveInt = 3
    presence_ttl: PositiveFloat = 15.0
    open_table_ttl: PositiveFloat = 1800.0
    allowed_hosts: str = ""
    trusted_proxies: str = "127.0.0.1,::1"
    tables_in_memory: PositiveInt = 2000
    table_idle: PositiveFloat = 600.0
    creates_per_minute: PositiveInt = 20
    joins_per_minute: PositiveInt = 60
    rematches_per_minute: PositiveInt = 20
    sockets_per_address: PositiveInt = 50
    sockets_per_game: PositiveInt = 200
    flood_warnings: PositiveInt = 20
    lobby_ttl: PositiveFloat = 86400.0
    finished_ttl: NonNegativeFloat = 0.0
    sweep_interval: PositiveFloat = 600.0
    commit: str | None = None
    debug_logs: str = ""
    testing_stacked_deck: bool = False
    testing_seed: str | None = None
    testing_slap_online: bool = False

    @field_validator("allowed_hosts")
    @classmethod
    def _no_ports(cls, value: str) -> str:
        """Refuse a host given with a port: the ``Host`` check compares names only
        (Starlette drops the port), so ``cards.example:8443`` would never match."""
        for host in names(value):
            if _WITH_PORT.match(host):
                name = host.rsplit(":", 1)[0]
                raise ValueError(f"{host!r} has a port; list the host name only "
                                 f"({name!r}: the port is not compared)")
        return value

    def hosts(self, bind: str | None = None) -> list[str]:
        """The allowed ``Host`` names: the loopback names, then ``allowed_hosts``
        or by default ``bind`` (the address ``serve`` listens on; none when it is
        every address, ``0.0.0.0`` or ``::``)."""
        given = names(self.allowed_hosts)
        if not given and bind and bind not in ("0.0.0.0", "::"):
            given = [bind]
        return [*LOOPBACK_HOSTS, *given]
