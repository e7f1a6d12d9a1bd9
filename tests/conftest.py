"""Suite-wide test order.

Playwright's sync API keeps an event loop running in the main thread while
its session-scoped browser is open, which breaks asyncio tests that come
after it. Browser tests therefore run last.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Move every test marked ``browser`` to the end, keeping relative order."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
