"""Live fan-out of game events to every connection watching a game.

:class:`Bus` is the interface; :class:`LocalBus` serves one process and
:class:`~cardwar.bus.redis.RedisBus` several (Redis pub/sub). Events carry
their ``seq``; a :class:`Subscription` delivers them once each, in order,
filling gaps from the store when its bus can lose messages.
"""

from .base import Bus, CatchUp, Hooks, Message, OnRemote, Subscription
from .limits import Limiter, LocalLimiter
from .local import LocalBus
from .slots import LocalSlots, Slots


def open_bus(redis_url: str | None, prefix: str = "cardwar:",
             liveness_ttl: float = 15.0) -> Bus:
    """Return a :class:`LocalBus`, or a Redis bus when ``redis_url`` is given
    (``liveness_ttl``: see :class:`~cardwar.bus.redis.RedisBus`)."""
    if not redis_url:
        return LocalBus()
    from .redis import RedisBus

    return RedisBus(redis_url, prefix=prefix, liveness_ttl=liveness_ttl)


__all__ = [
    "Bus", "CatchUp", "Hooks", "Limiter", "LocalBus", "LocalLimiter", "LocalSlots", "Message",
    "OnRemote", "Slots", "Subscription", "open_bus",
]
