"""``cardwar migrate``, ``check`` and ``static``, and ``serve``'s catalog check.

Run in-process through :func:`cardwar.cli.main` against real SQLite files
in temporary folders; the catalogs are real copies of the package's, broken
on purpose (a ``.mo`` removed, a ``.po`` changed after compiling).
"""

from __future__ import annotations

import shutil
import socket
import sqlite3
from pathlib import Path

import pytest

import cardwar.catalogs
from cardwar.catalogs import LOCALES, catalog_problems
from cardwar.cli import main
from cardwar.web.i18n import LOCALE_DIR
from cardwar.web.templating import STATIC_DIR, module_url, static_url


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/var/cardwar.db"


@pytest.fixture
def locales(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the package's compiled catalogs that the commands read instead."""
    assert catalog_problems() == [], "compile the catalogs first (make catalogs)"
    copy = tmp_path / "locales"
    shutil.copytree(LOCALE_DIR, copy)
    monkeypatch.setattr(cardwar.catalogs, "LOCALE_DIR", copy)
    return copy


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_migrate_upgrades_once_then_says_it_is_up_to_date(capsys, db) -> None:
    status, out, _ = cli(capsys, "migrate", "--database", db)
    assert status == 0
    assert out == f"database sqlite+aiosqlite:///{db[10:]}: upgraded from revision none to 0003\n"
    status, out, _ = cli(capsys, "migrate", "--database", db)
    assert status == 0
    assert out.endswith(": already at revision 0003 (the newest)\n")


@pytest.mark.parametrize(("url", "problem"), [
    ("mysql://x@localhost/db", "--database: unsupported database 'mysql'"),
    ("postgresql://cardwar:s3cret@127.0.0.1:1/cardwar",
     "cannot use the database postgresql+asyncpg://cardwar:***@127.0.0.1:1/cardwar: "),
])
def test_migrate_without_a_usable_database_is_one_line_and_status_2(capsys, url,
                                                                    problem) -> None:
    status, out, err = cli(capsys, "migrate", "--database", url)
    assert status == 2
    assert out == ""
    assert err.startswith(f"cardwar: error: {problem}")
    assert err.count("\n") == 1
    assert "s3cret" not in err


def test_check_passes_on_a_migrated_database(capsys, db, locales) -> None:
    cli(capsys, "migrate", "--database", db)
    status, out, _ = cli(capsys, "check", "--database", db)
    assert status == 0
    lines = out.splitlines()
    assert [line.split()[:2] for line in lines] == [
        ["settings", "ok"], ["database", "ok"], ["redis", "ok"], ["catalogs", "ok"],
        ["directories", "ok"]]
    assert "schema at revision 0003 (the newest)" in lines[1]
    assert lines[3].endswith(
        f"{len(LOCALES)} locales x 2 domains, each compiled and matching its .po")


def test_check_names_every_problem_and_exits_1(capsys, db, locales, tmp_path,
                                               monkeypatch) -> None:
    (locales / "pl" / "LC_MESSAGES" / "play.mo").unlink()
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path / "missing"))
    status, out, _ = cli(capsys, "check", "--database", db,
                         "--redis", "redis://:pw@127.0.0.1:1/0")
    assert status == 1
    found = {line.split()[0]: line for line in out.splitlines()}
    assert "FAILED  no database file" in found["database"]
    assert "run `cardwar migrate`" in found["database"]
    assert "FAILED  cannot reach Redis at redis://:***@127.0.0.1:1/0" in found["redis"]
    assert "pl/play.mo is missing" in found["catalogs"]
    assert found["directories"].endswith(
        f"FAILED  {tmp_path / 'var'} does not exist; {tmp_path / 'missing'} does not exist")
    assert not (tmp_path / "var" / "cardwar.db").exists()  # check never creates the database


def test_check_takes_the_allowed_hosts_as_serve_does(capsys, db, locales) -> None:
    cli(capsys, "migrate", "--database", db)
    status, out, _ = cli(capsys, "check", "--database", db,
                         "--allowed-hosts", "cards.example.org,*.cards.example.org")
    assert status == 0
    settings = out.splitlines()[0]
    assert settings.startswith("settings     ok")
    assert settings.endswith("allowed hosts localhost, 127.0.0.1, ::1, [::1], "
                             "cards.example.org, *.cards.example.org"), settings
    status, out, _ = cli(capsys, "check", "--database", db,
                         "--allowed-hosts", "cards.example.org:8443")
    assert status == 1
    assert out.splitlines()[0].startswith(
        "settings     FAILED  bad setting CARDWAR_ALLOWED_HOSTS: ")
    assert "'cards.example.org:8443' has a port" in out.splitlines()[0]


def test_check_of_bad_settings_says_which(capsys, monkeypatch) -> None:
    monkeypatch.setenv("CARDWAR_FLIP_TIMEOUT", "soon")
    status, out, _ = cli(capsys, "check")
    assert status == 1
    assert out.splitlines()[0].startswith(
        "settings     FAILED  bad setting CARDWAR_FLIP_TIMEOUT: Input should be a valid number")


@pytest.mark.parametrize(("name", "value"), [("CARDWAR_OPEN_TABLE_TTL", "-5"),
                                           ("CARDWAR_FLIP_TIMEOUT", "0"),
                                           ("CARDWAR_COMPUTER_DELAY", "-1")])
def test_check_refuses_a_duration_that_cannot_be(capsys, monkeypatch, name, value) -> None:
    monkeypatch.setenv(name, value)
    status, out, _ = cli(capsys, "check")
    assert status == 1
    assert out.splitlines()[0].startswith(
        f"settings     FAILED  bad setting {name}: Input should be")


def test_a_misspelt_setting_in_the_env_file_is_named(capsys, db, tmp_path) -> None:
    env = tmp_path / "env"
    env.write_text(f"CARDWAR_DATABSE={db}\nCARDWAR_REDIS_PREFIX=x:\nOTHER=1\n")
    status, out, _ = cli(capsys, "check", "--env-file", str(env))
    assert status == 1
    assert out.splitlines()[0] == (
        f"settings     FAILED  unknown setting CARDWAR_DATABSE in {env}")
    status, _, err = cli(capsys, "migrate", "--env-file", str(env))
    assert status == 2
    assert err == f"cardwar: error: unknown setting CARDWAR_DATABSE in {env}\n"
    assert not (tmp_path / "var").exists()


def test_check_accepts_a_schema_from_a_newer_version(capsys, db, locales) -> None:
    cli(capsys, "migrate", "--database", db)
    with sqlite3.connect(db[10:]) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '9999'")
    status, out, _ = cli(capsys, "check", "--database", db)
    assert status == 0
    assert "schema at revision 9999, newer than this version's 0003" in out
    status, out, _ = cli(capsys, "migrate", "--database", db)
    assert status == 0
    assert "left as it is" in out


def test_env_file_is_read_and_the_environment_wins(capsys, db, tmp_path, monkeypatch) -> None:
    env = tmp_path / "env"
    env.write_text(f"# settings\nCARDWAR_DATABASE={db}\nCARDWAR_REDIS_PREFIX=from-file:\n")
    status, out, _ = cli(capsys, "migrate", "--env-file", str(env))
    assert status == 0
    assert db[10:] in out
    monkeypatch.setenv("CARDWAR_DATABASE", f"sqlite:///{tmp_path}/other.db")
    status, out, _ = cli(capsys, "check", "--env-file", str(env))
    assert "other.db" in out.splitlines()[0]
    status, out, err = cli(capsys, "migrate", "--env-file", str(tmp_path / "nope"))
    assert status == 2
    assert err == f"cardwar: error: cannot read --env-file {tmp_path / 'nope'}: " \
                  "No such file or directory\n"


@pytest.mark.parametrize("damage", ["missing", "stale"])
def test_serve_refuses_catalogs_that_are_missing_or_stale(capsys, db, locales,
                                                          damage) -> None:
    po = locales / "de" / "LC_MESSAGES" / "messages.po"
    if damage == "missing":
        po.with_suffix(".mo").unlink()
        problem = "de/messages.mo is missing"
    else:  # a translation changed after the catalogs were compiled
        text = po.read_text()
        po.write_text(text.replace('msgstr "Zum Inhalt springen"', 'msgstr "Zum Inhalt"'))
        assert po.read_text() != text
        problem = "de/messages.mo does not match its .po (2 messages differ)"
    status, out, err = cli(capsys, "serve", "--port", str(free_port()), "--database", db)
    assert status == 2
    assert out == ""
    assert err.startswith(f"cardwar: error: catalogs not compiled or out of date: {problem}")
    assert err.count("\n") == 1


def test_static_keeps_every_version_of_every_file(capsys, tmp_path) -> None:
    target = tmp_path / "static"
    old = target / "0123456789" / "site.css"  # a file of an earlier version
    old.parent.mkdir(parents=True)
    old.write_text("old")
    files = sorted(p.relative_to(STATIC_DIR).as_posix() for p in STATIC_DIR.rglob("*")
                   if p.is_file())
    status, out, _ = cli(capsys, "static", str(target))
    assert status == 0
    assert out.startswith(f"static files: {len(files)} in {target} (")
    for path in files:  # where nginx looks for the URLs of the pages (locations.conf)
        version = static_url(path).rpartition("?v=")[2]
        module = module_url(path).removeprefix("/static/")
        for copy in (target / version / path, target / "latest" / path, target / module):
            assert copy.read_bytes() == (STATIC_DIR / path).read_bytes()
            assert copy.stat().st_mode & 0o777 == 0o644
    assert old.read_text() == "old"
    status, out, _ = cli(capsys, "static", str(target))
    assert out.endswith("(0 new copies)\n")


def test_static_into_a_place_it_cannot_write_is_one_line(capsys, tmp_path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    status, _, err = cli(capsys, "static", str(blocker / "static"))
    assert status == 2
    assert err.count("\n") == 1
    assert err.startswith(f"cardwar: error: cannot write the static files in {blocker}/static")


def test_the_guides_sample_of_check_is_what_this_version_prints() -> None:
    from cardwar.ops import head_revision

    guide = (Path(__file__).parent.parent / "deploy" / "README.md").read_text()
    assert f"schema at revision {head_revision()} (the newest)" in guide
    assert f"catalogs     ok      {len(cardwar.catalogs.LOCALES)} locales x 2 domains" in guide


@pytest.mark.parametrize(("url", "shown"), [
    ("redis://:s3cret@127.0.0.1:6379/0", "redis://:***@127.0.0.1:6379/0"),
    ("rediss://bob:p%40ss%3Aword@cache.example.org:6380/2?ssl_cert_reqs=none",
     "rediss://bob:***@cache.example.org:6380/2?ssl_cert_reqs=none"),
    ("redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/0"),
    ("unix:///run/redis/redis.sock", "unix:///run/redis/redis.sock"),
    ("not a url", "not a url"),
])
def test_a_redis_url_is_shown_without_its_password(url: str, shown: str) -> None:
    """``check`` and ``serve`` name the Redis they use, never its password."""
    from cardwar.ops import hide_password

    assert hide_password(url) == shown


def test_serve_help_says_where_the_other_settings_are(capsys) -> None:
    import re

    from cardwar.settings import Settings

    with pytest.raises(SystemExit) as exited:
        main(["serve", "--help"])
    assert exited.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "CARDWAR_<NAME>" in text
    assert "--env-file" in text
    named = re.findall(r"CARDWAR_([A-Z_]+[A-Z])", text)
    assert "REDIS_PREFIX" in named
    assert {n.lower() for n in named if n != "NAME"} <= set(Settings.model_fields)
