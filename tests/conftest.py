"""Suite-wide test order, xdist, and the host name of the test client.

Playwright's sync API keeps an event loop running in the main thread while
its session-scoped browser is open, which breaks asyncio tests that come
after it. Browser tests therefore run last, and ``make test`` runs them in a
pytest run of their own (``-m browser``) after the others.

The others run on two xdist workers (``-n 2``). What they share is made
once: ``make pytest`` compiles numba's core into its cache before them, and
the release build of ``tests/deploy`` takes a lock (two builds in one source
tree would trip over each other's build folders). xdist's ``xdist_group``
does not group with this pytest (9.2) and xdist (3.8): do not rely on it.
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


# The tests that take longest and mostly wait (a minute's chaos soak, the
# self-hosting guide's installs and services, the scale-out processes) start
# first, so that the xdist workers fill the waits with the short tests instead
# of ending on one long test. Among the browser tests (a run of their own), the
# files of the longest games (20 to 35 s each on CI) first, for the same reason.
LONG_FIRST = ("tests/scale/test_chaos.py", "tests/deploy/", "tests/scale/",
              "tests/browser/test_play_reconnect.py", "tests/browser/test_play.py",
              "tests/browser/test_social.py", "tests/browser/test_play_connection.py",
              "tests/browser/test_layout.py")


def _order(item: pytest.Item) -> tuple[bool, int]:
    path = item.nodeid
    long = next((i for i, prefix in enumerate(LONG_FIRST) if path.startswith(prefix)),
                len(LONG_FIRST))
    return item.get_closest_marker("browser") is not None, long


#: The tests that start server processes or services and judge them by time
#: (the chaos soak, faults, the guide's services, the benchmarks, the slap
#: judge's latency through a delaying proxy): marked ``heavy``. They never run
#: beside the browser tests (on two cores that made both flaky); ``make
#: pytest-heavy`` runs them alone, ``make pytest-light`` the others.
HEAVY = ("tests/scale/", "tests/deploy/", "tests/test_bench.py",
         "tests/bus/test_redis_faults.py", "tests/play/test_slap_fairness.py",
         "tests/play/test_slap_latency.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests under :data:`HEAVY` ``heavy``, move every test marked
    ``browser`` to the end and the long ones (:data:`LONG_FIRST`) to the front,
    keeping relative order otherwise."""
    for item in items:
        if item.nodeid.startswith(HEAVY):
            item.add_marker(pytest.mark.heavy)
    items.sort(key=_order)

