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
