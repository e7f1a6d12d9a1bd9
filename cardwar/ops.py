"""What a self-hoster runs besides ``serve``: ``migrate``, ``check`` and ``static``.

Also the checks ``cardwar serve`` makes before it starts, so every command
names a problem in the same words. Every problem is one line
(:class:`ServiceError`); passwords in URLs are shown as ``***``.

* :func:`migrate` - Alembic upgrade to the newest revision.
* :func:`run_checks` - settings, database (reachable, schema up to date),
  Redis (when configured), catalogs, writable directories: one
  :class:`Finding` each.
* :func:`collect_static` - the static files for nginx, kept per version.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .settings import Settings


class ServiceError(ValueError):
    """A setting, database, Redis or catalog that cannot be used (one line; the
    command line prints it with status 2, as other bad input)."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One line of ``cardwar check``: ``name`` (``"database"``...), ``ok``, ``detail``."""

    name: str
    ok: bool
    detail: str

    def line(self) -> str:
        """``"database     ok      PostgreSQL 15.20, ..."`` (aligned columns)."""
        return f"{self.name:<12} {'ok' if self.ok else 'FAILED':<7} {self.detail}"


def hide_password(url: str) -> str:
    """``url`` (a Redis or database URL) with its password, if any, shown as
    ``***`` (SQLAlchemy's URL parser, as :func:`shown_database`); a text that
    is no URL is returned as it is."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return url


def first_line(exc: BaseException) -> str:
    """The first line of ``exc``'s message, without SQLAlchemy's ``(driver.Error)`` prefix."""
    lines = str(getattr(exc, "orig", None) or exc).strip().splitlines()
    return re.sub(r"^\([\w.]+\) ", "", lines[0]) if lines else type(exc).__name__


def load_settings(env_file: str | None = None, **overrides: Any) -> Settings:
    """``Settings`` from the ``CARDWAR_*`` environment, then ``env_file`` (lines
    ``CARDWAR_X=value``, ``#`` comments), with ``overrides`` (flags) first.

    Raises:
        ServiceError: ``env_file`` cannot be read, or a value is not valid, e.g.
            ``"bad setting CARDWAR_FLIP_TIMEOUT: Input should be a valid number"``.
    """
    if env_file is not None:
        try:
            with open(env_file, "rb"):
                pass
        except OSError as exc:
            raise ServiceError(f"cannot read --env-file {env_file}: "
                               f"{exc.strerror or exc}") from None
        unknown_settings(env_file)
    try:
        return Settings(_env_file=env_file, **overrides)  # type: ignore[call-arg]
    except ValidationError as exc:
        problems = "; ".join(
            "CARDWAR_" + "_".join(str(part) for part in error["loc"]).upper()
            + f": {error['msg']}" for error in exc.errors())
        raise ServiceError(f"bad setting {problems}") from None


def unknown_settings(env_file: str) -> None:
    """Refuse an env file that sets a ``CARDWAR_*`` key no setting has (a typo
    such as ``CARDWAR_DATABSE`` would otherwise fall back to the default).

    Raises:
        ServiceError: e.g. ``"unknown setting CARDWAR_DATABSE in /etc/cardwar.env"``.
    """
    from dotenv import dotenv_values

    known = {f"CARDWAR_{name}".upper() for name in Settings.model_fields}
    unknown = sorted(key for key in dotenv_values(env_file)
                     if key.upper().startswith("CARDWAR_") and key.upper() not in known)
    if unknown:
        raise ServiceError(f"unknown setting {', '.join(unknown)} in {env_file}")


def shown_database(url: str) -> str:
    """The database URL as the store will use it, password hidden.

    Raises:
        ServiceError: not a SQLite or PostgreSQL URL (``--database: ...``).
    """
    from urllib.parse import unquote

    from .store.store import async_url

    try:
        return unquote(async_url(url).render_as_string(hide_password=True))
    except ValueError as exc:
        raise ServiceError(f"--database: {exc}") from None


def head_revision() -> str:
    """The newest Alembic revision this version of cardwar knows, e.g. ``"0001"``."""
    from alembic.script import ScriptDirectory

    from .store.store import MIGRATIONS

    head = ScriptDirectory(str(MIGRATIONS)).get_current_head()
    assert head is not None, "no migrations"
    return head


async def _database(url: str, *, upgrade: bool = False) -> tuple[str, str | None, str | None]:
    """Connect to ``url``; return ``(server, revision before, revision after)``,
    after running the migrations when ``upgrade``."""
    from alembic.runtime.migration import MigrationContext

    from .store import Store

    def revision(connection: Any) -> str | None:
        return MigrationContext.configure(connection).get_current_revision()

    store = Store(url)
    try:
        async with store.engine.connect() as conn:
            before = await conn.run_sync(revision)
            version = ".".join(str(n) for n in (conn.dialect.server_version_info or ())[:3])
        server = f"{'PostgreSQL' if store.engine.dialect.name == 'postgresql' else 'SQLite'}"
        if upgrade:
            await store.migrate()
            async with store.engine.connect() as conn:
                return f"{server} {version}", before, await conn.run_sync(revision)
        return f"{server} {version}", before, before
    finally:
        await store.close()


def _run(coro: Any, seconds: float, what: str) -> Any:
    """Run ``coro`` with a time limit; any failure becomes one ServiceError line."""
    try:
        return asyncio.run(asyncio.wait_for(coro, seconds))
    except TimeoutError:
        raise ServiceError(f"{what}: no answer within {seconds:g} s") from None
    except Exception as exc:  # noqa: BLE001 - any failure: one line
        raise ServiceError(f"{what}: {first_line(exc)}") from None


def _sqlite_file(url: str) -> Path | None:
    from .store.store import async_url

    parsed = async_url(url)  # a SQLite URL always names its file (async_url checks)
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        return None
    return Path(parsed.database).absolute()


def check_database(url: str, *, schema: bool = False) -> str:
    """Check that the database answers; return e.g. ``"PostgreSQL 15.20"``.

    With ``schema``, also that its schema is at :func:`head_revision` (or a
    newer revision, from a newer version of cardwar during an upgrade), and
    say so; a SQLite file that does not exist yet is not created.

    Raises:
        ServiceError: bad URL, no answer, or (``schema``) not migrated.
    """
    shown = shown_database(url)
    sqlite = _sqlite_file(url)
    if schema and sqlite is not None and not sqlite.is_file():
        raise ServiceError(f"no database file {sqlite}: run `cardwar migrate` to create it")
    server: str
    revision: str | None
    server, revision, _ = _run(_database(url), 15, f"cannot use the database {shown}")
    if not schema:
        return server
    head = head_revision()
    if revision == head:
        return f"{server}, schema at revision {head} (the newest)"
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError

    from .store.store import MIGRATIONS

    try:
        known = revision is not None and bool(ScriptDirectory(str(MIGRATIONS))
                                              .get_revision(revision))
    except CommandError:
        known = False
    if revision is not None and not known:
        return (f"{server}, schema at revision {revision}, newer than this version's "
                f"{head} (a newer cardwar migrated it)")
    raise ServiceError(f"the schema of {shown} is at revision {revision or 'none'}, this "
                       f"version needs {head}: run `cardwar migrate`")


def check_redis(url: str) -> str:
    """Check that Redis answers; return e.g. ``"Redis 7.0.15"``.

    Raises:
        ServiceError: no answer (the password of ``url`` is not shown).
    """

    async def probe() -> str:
        import redis.asyncio as aioredis

        client = aioredis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
        try:
            info = await client.info("server")
        finally:
            await client.aclose()
        return f"Redis {info.get('redis_version', '?')}"

    return str(_run(probe(), 10, f"cannot reach Redis at {hide_password(url)}"))


def check_services(database: str, redis_url: str | None) -> None:
    """Raise :class:`ServiceError` (one line) when the database or Redis cannot be used."""
    check_database(database)
    if redis_url:
        check_redis(redis_url)


def check_catalogs() -> str:
    """Check that every catalog is compiled and matches its ``.po``.

    Raises:
        ServiceError: e.g. ``"catalogs not compiled or out of date: pl/play.mo is
            missing; reinstall cardwar (its build compiles them) or run `make catalogs`"``.
    """
    from .catalogs import catalog_problems, catalogs_summary

    problems = catalog_problems()
    if problems:
        raise ServiceError(
            f"catalogs not compiled or out of date: {', '.join(problems)}; reinstall "
            "cardwar (its build compiles them) or run `make catalogs` in a checkout")
    return f"{catalogs_summary()}, each compiled and matching its .po"


def _unwritable(folder: Path) -> str | None:
    """Why no file can be created in ``folder``, or None when one can."""
    if not folder.exists():
        return f"{folder} does not exist"
    if not folder.is_dir():
        return f"{folder} is not a directory"
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        return f"cannot write in {folder}: {exc.strerror or exc}"
    return None


def check_directories(settings: Settings) -> str:
    """Check the directories the site writes in: a SQLite database's folder and
    ``PROMETHEUS_MULTIPROC_DIR`` (when set). Returns what was checked.

    Raises:
        ServiceError: one of them is missing or cannot be written.
    """
    folders = []
    sqlite = _sqlite_file(settings.database)
    if sqlite is not None:
        folders.append(sqlite.parent)
    metrics = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if metrics:
        folders.append(Path(metrics))
    problems = [p for p in map(_unwritable, folders) if p]
    if problems:
        raise ServiceError("; ".join(problems))
    if not folders:
        return "none to write in (database on PostgreSQL, metrics kept in memory)"
    return ", ".join(str(f) for f in folders) + " writable"


def run_checks(env_file: str | None = None, **overrides: Any) -> list[Finding]:
    """Every check of ``cardwar check``, in order; a check that cannot run
    because the settings are bad is reported as such."""
    findings: list[Finding] = []

    def add(name: str, check: Callable[[], str]) -> None:
        try:
            findings.append(Finding(name, True, check()))
        except ServiceError as exc:
            findings.append(Finding(name, False, str(exc)))

    try:
        settings = load_settings(env_file, **overrides)
        shown = shown_database(settings.database)
    except ServiceError as exc:
        findings.append(Finding("settings", False, str(exc)))
        findings += [Finding(name, False, "not checked: the settings are not usable")
                     for name in ("database", "redis")]
        add("catalogs", check_catalogs)
        findings.append(Finding("directories", False, "not checked: the settings are not "
                                                      "usable"))
        return findings
    redis = hide_password(settings.redis) if settings.redis else "none (one process)"
    hosts = ", ".join(settings.hosts())
    findings.append(Finding("settings", True,
                            f"database {shown}, Redis {redis}, allowed hosts {hosts}"))
    add("database", lambda: check_database(settings.database, schema=True))
    if settings.redis:
        redis_url = settings.redis
        add("redis", lambda: f"{check_redis(redis_url)}, channel prefix {settings.redis_prefix}")
    else:
        findings.append(Finding("redis", True, "not used (one process; several need "
                                               "CARDWAR_REDIS)"))
    add("catalogs", check_catalogs)
    add("directories", lambda: check_directories(settings))
    return findings


def migrate(url: str) -> str:
    """Upgrade the database at ``url`` to the newest revision; return one line,
    e.g. ``"database sqlite+aiosqlite:///var/cardwar.db: upgraded from none to 0001"``.

    Raises:
        ServiceError: bad URL or the database does not answer (``cardwar: error``, exit 2).
        RuntimeError: a migration failed (the message is one line).
    """
    shown = shown_database(url)
    check_database(url)
    try:
        _, before, after = asyncio.run(_database(url, upgrade=True))
    except Exception as exc:  # noqa: BLE001 - a failed migration: one line
        if "Can't locate revision" in str(exc):
            return (f"database {shown}: left as it is, at a revision newer than this "
                    f"version's {head_revision()} (a newer cardwar migrated it)")
        raise RuntimeError(f"migrating {shown} failed: {first_line(exc)}") from None
    if before == after:
        return f"database {shown}: already at revision {after} (the newest)"
    return f"database {shown}: upgraded from revision {before or 'none'} to {after}"


def collect_static(target: Path) -> str:
    """Copy the site's static files into ``target`` for nginx; return one line.

    Each file goes where nginx looks for the URLs the pages use
    (deploy/nginx/locations.conf):

    * ``target/<v>/<path>`` for ``/static/<path>?v=<v>`` (:func:`static_url`:
      ``<v>`` is the hash of the file), and ``target/latest/<path>``;
    * ``target/v/<v>/<path>`` for ``/static/v/<v>/<path>`` (:func:`module_url`:
      ``<v>`` is the hash of a folder, so every file under a folder is copied
      under that folder's hash, and relative imports stay in one version).

    Hashed copies are never removed: after an upgrade a page loaded from the
    previous version still gets its own files, and every versioned URL keeps
    its year-long cache. Files are written atomically (a temporary file, then
    a rename), readable by all.

    Raises:
        OSError: ``target`` cannot be created or written.
    """
    from .web.templating import STATIC_DIR, module_url, static_url

    files = sorted(p.relative_to(STATIC_DIR).as_posix() for p in STATIC_DIR.rglob("*")
                   if p.is_file())
    folders = sorted({""} | {p.relative_to(STATIC_DIR).as_posix() for p in STATIC_DIR.rglob("*")
                            if p.is_dir()})
    copies = [(f"{static_url(path).rpartition('?v=')[2]}/{path}", path) for path in files]
    for folder in folders:  # module_url's version of the folder, from a name inside it
        version = module_url(f"{folder}/-" if folder else "-").split("/")[3]
        copies += [(f"v/{version}/{path}", path) for path in files
                   if not folder or path.startswith(f"{folder}/")]
    added = 0
    for dest, path in copies:
        if not (target / dest).is_file():
            _copy(STATIC_DIR / path, target / dest)
            added += 1
    for path in files:
        _copy(STATIC_DIR / path, target / "latest" / path)
    return f"static files: {len(files)} in {target} ({added} new copies)"


def _copy(source: Path, dest: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True, mode=0o755)
    fd, temporary = tempfile.mkstemp(dir=dest.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as out, source.open("rb") as src:
            shutil.copyfileobj(src, out)
        os.chmod(temporary, 0o644)
        os.replace(temporary, dest)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
