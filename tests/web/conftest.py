"""Fixtures for the site's HTTP tests: one app and ASGI test client."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from cardwar.settings import Settings
from cardwar.web.app import create_app


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """A test client of a fresh app with a temporary SQLite database."""
    db = tmp_path_factory.mktemp("web") / "db.sqlite"
    app = create_app(Settings(database=f"sqlite+aiosqlite:///{db}", commit="abc1234"))
    with TestClient(app) as c:
        yield c
