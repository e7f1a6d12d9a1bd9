"""Suite-wide test order, xdist groups, and the host name of the test client.

Playwright's sync API keeps an event loop running in the main thread while
its session-scoped browser is open, which breaks asyncio tests that come
after it. Browser tests therefore run last, and ``make test`` runs them in a
pytest run of their own (``-m browser``) after the others.

The others run on two xdist workers (``-n 2 --dist loadgroup``). Tests that
share something costly to make go to one worker as a group (:data:`GROUPS`):
the release built once and the virtualenvs the install tests hand on
(``tests/deploy``), and numba's compiled core, compiled once into its cache
by the first of them (the simulations, in-process and by the command line).
"""

from __future__ import annotations

import os

import pytest

# Starlette's TestClient sends ``Host: testserver`` (and a few tests the example
# site's name): allowed hosts in tests
# (the loopback names always are; tests of the default pass ``allowed_hosts``).
os.environ.setdefault("CARDWAR_ALLOWED_HOSTS", "testserver,cards.example.org")
# Every test client is one address: the per-address limits are tested where
# they are set (tests/play/test_limits.py), not in every test that plays a lot.
for _limit in ("CREATES_PER_MINUTE", "JOINS_PER_MINUTE", "REMATCHES_PER_MINUTE",
               "SOCKETS_PER_ADDRESS"):
    os.environ.setdefault(f"CARDWAR_{_limit}", "100000")


#: xdist group -> the tests in it: path prefixes (from the repository root),
#: or ``path::word`` for the tests of a file whose name has that word.
GROUPS: dict[str, tuple[str, ...]] = {
    "deploy": ("tests/deploy/",),
    "numba": ("tests/engine/test_core.py", "tests/web/test_stats.py",
              "tests/test_cli.py::simulate"),
}


def _group(nodeid: str) -> str | None:
    path, _, name = nodeid.partition("::")
    for group, members in GROUPS.items():
        for member in members:
            prefix, _, word = member.partition("::")
            if path.startswith(prefix) and word in name:
                return group
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Move every test marked ``browser`` to the end, keeping relative order;
    put the tests of :data:`GROUPS` in their xdist group."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
    for item in items:
        group = _group(item.nodeid)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))

