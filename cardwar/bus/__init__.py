"""Live fan-out of game events to every connection watching a game.

:class:`Bus` is the interface; :class:`LocalBus` serves one process. A Redis
pub/sub implementation (issue 6) fills the same interface: events carry
their ``seq``, so a subscriber that missed some resyncs from the store.
"""

from .local import Bus, LocalBus, Subscription

__all__ = ["Bus", "LocalBus", "Subscription"]
