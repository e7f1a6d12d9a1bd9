"""Issue 10, item 4: ``serve --allowed-hosts`` and ``CARDWAR_ALLOWED_HOSTS`` on a real server."""

from __future__ import annotations

import httpx2 as httpx
import pytest

from .server import serving


def status(base: str, host: str) -> int:
    return httpx.get(f"{base}/en/", headers={"Host": host}, timeout=10).status_code


@pytest.mark.timeout(120)
def test_serve_answers_only_its_allowed_hosts(tmp_path):
    with serving(tmp_path, "--allowed-hosts", "play.example.net") as (base, _):
        assert status(base, "play.example.net") == 200
        assert status(base, "play.example.net:8080") == 200
        assert status(base, "127.0.0.1") == 200  # loopback names always work
        assert status(base, "evil.example") == 400
        assert status(base, "cards.example.org") == 400  # the flag wins over the environment
    with serving(tmp_path, allowed_hosts="env.example.net") as (base, _):
        assert status(base, "env.example.net") == 200
        assert status(base, "play.example.net") == 400


def test_an_allowed_host_with_a_port_is_refused_in_one_line(tmp_path, monkeypatch, capsys):
    # issue 24, item 6: Starlette compares host names without their port, so
    # ``cardwar.example:8443`` would never match: check and serve say so
    from cardwar.cli import main

    db = f"sqlite:///{tmp_path / 'games.db'}"
    monkeypatch.setenv("CARDWAR_ALLOWED_HOSTS", "cards.example.org,[::1]:8000")
    monkeypatch.setenv("CARDWAR_DATABASE", db)
    assert main(["check"]) == 1
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if line.startswith("settings")] == [
        "settings     FAILED  bad setting CARDWAR_ALLOWED_HOSTS: Value error, "
        "'[::1]:8000' has a port; list the host name only ('[::1]': the port is not "
        "compared)"]
    monkeypatch.setenv("CARDWAR_ALLOWED_HOSTS", "cards.example.org,::1,[::1]")  # no port
    main(["check"])
    assert capsys.readouterr().out.startswith("settings     ok  ")
    assert main(["serve", "--database", db, "--allowed-hosts", "cardwar.example:8443"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "'cardwar.example:8443' has a port" in err
    assert "'cardwar.example'" in err
