"""How fast a slap was, measured where the socket is (RULES.md 11.6).

A slap is judged by its *reaction*: the time from when the server sent the
card it reacts to, to when the slap arrived, less the player's *latency*
(half the median of their last five heartbeat round trips, at most
:data:`LATENCY_CAP_MS`) for each of the two ways between: the card's to the
page and the slap's back. **[clarified]** RULES.md 11.6 says "less their
latency"; taken once, that would leave a player 150 ms away from the
server 150 ms slower than one next to it for the same reaction, which is
what 11.6 exists to prevent, so the latency is taken for both ways (at most
2 x 150 ms in all). Every one of these times is taken by the server
process that holds the player's socket, on that process's own monotonic
clock, so a reaction is a duration measured on one clock and reactions
measured by different processes compare fairly. The table's side
(:mod:`cardwar.tables.slap_judge`) only compares them.

* :class:`RoundTrips`: one connection's numbered heartbeats (:meth:`~RoundTrips.ping`,
  :meth:`~RoundTrips.pong`) and the latency they give.
* :class:`SendStamps`: when each card was first sent to one seat's pages.
* :func:`time_slap`: a slap's :class:`SlapTiming` from those two.

Pure: times are monotonic seconds handed in by the caller (an injected
clock), never read here and never slept on. Figures are whole milliseconds,
so anyone can check ``reaction = arrived - sent - 2 * latency`` from a record.
"""

from __future__ import annotations

import itertools
from collections import OrderedDict, deque
from dataclasses import dataclass
from statistics import median_low

__all__ = ["LATENCY_CAP_MS", "ROUND_TRIPS_KEPT", "RoundTrips", "SendStamps", "SlapTiming",
           "ms", "time_slap"]

#: The most latency a player is credited with, in ms (RULES.md 11.6).
LATENCY_CAP_MS = 150
#: Round trips the latency is the median of (RULES.md 11.6: the last five).
ROUND_TRIPS_KEPT = 5
#: Heartbeats awaiting their answer, per connection (older ones are forgotten).
_OUTSTANDING = 8
#: Piles whose send stamps are kept (a pile on the table holds at most 52 cards).
_STAMPS_KEPT = 64


def ms(seconds: float) -> int:
    """``seconds`` as whole milliseconds (rounded to the nearest)."""
    return round(seconds * 1000)


class RoundTrips:
    """One connection's heartbeat round trips and its latency (RULES.md 11.6).

    The server numbers each heartbeat (:meth:`ping` gives the number the
    ``ping`` frame carries) and the page echoes the number in its ``pong``
    (:meth:`pong`). A page that answers late only inflates its own latency,
    which is capped at :data:`LATENCY_CAP_MS`: delaying the answers raises it
    by at most the cap (a reaction by at most twice the cap, less the true
    round trip); answering early (a number not sent yet) is ignored.
    """

    def __init__(self) -> None:
        self._numbers = itertools.count(1)
        self._waiting: OrderedDict[int, float] = OrderedDict()
        self._trips: deque[int] = deque(maxlen=ROUND_TRIPS_KEPT)

    def ping(self, at: float) -> int:
        """A heartbeat sent at ``at`` (monotonic seconds): the number it carries."""
        number = next(self._numbers)
        self._waiting[number] = at
        while len(self._waiting) > _OUTSTANDING:
            self._waiting.popitem(last=False)
        return number

    def pong(self, number: int, at: float) -> int | None:
        """The page's answer to heartbeat ``number`` arrived at ``at``.

        Returns:
            The round trip in ms, or None when ``number`` is not a heartbeat
            awaiting its answer (answered already, too old, never sent): it
            counts for nothing.
        """
        sent = self._waiting.pop(number, None)
        if sent is None or at < sent:
            return None
        trip = ms(at - sent)
        self._trips.append(trip)
        return trip

    def add(self, trip_ms: int) -> None:
        """Count a round trip of ``trip_ms`` ms measured otherwise.

        Raises:
            ValueError: a negative round trip.
        """
        if trip_ms < 0:
            raise ValueError(f"a round trip of {trip_ms} ms")
        self._trips.append(trip_ms)

    @property
    def trips(self) -> tuple[int, ...]:
        """The round trips counted, in ms, oldest first (at most the last five)."""
        return tuple(self._trips)

    @property
    def latency_ms(self) -> int:
        """Half the median of the last five round trips, in whole ms, at most
        :data:`LATENCY_CAP_MS`; 0 before the first answer (no credit unmeasured).

        With an even number of trips the lower middle one counts (integers only).
        """
        if not self._trips:
            return 0
        return min(LATENCY_CAP_MS, median_low(self._trips) // 2)


class SendStamps:
    """When each card was first sent to one seat's pages (monotonic seconds).

    Keep one per seat on each server process, not one per socket: a page that
    opens another socket to be sent a card again gets no later stamp, the
    first send counts.
    """

    def __init__(self) -> None:
        self._sent: OrderedDict[int, float] = OrderedDict()

    def sent(self, pile: int, at: float) -> None:
        """Card number ``pile`` went to a page at ``at`` (a later send keeps the first)."""
        if pile in self._sent:
            return
        self._sent[pile] = at
        while len(self._sent) > _STAMPS_KEPT:
            self._sent.popitem(last=False)

    def at(self, pile: int) -> float | None:
        """When card ``pile`` was first sent, or None (never, or long ago)."""
        return self._sent.get(pile)


@dataclass(frozen=True, slots=True)
class SlapTiming:
    """One slap's figures, in whole ms (RULES.md 11.6): ``reaction = arrived - sent -
    2 * latency`` (the card's way to the page and the slap's way back), or, for a
    computer, its drawn delay (11.8).

    Attributes:
        sent: when the card the slap names was sent to the slapper's page
            (for a computer: put down), ms from the measuring clock's origin.
        arrived: when the slap arrived, on the same clock.
        latency: the slapper's latency, one way (0 for a computer).
        reaction: the reaction the slap is judged by (smaller is faster; may be
            negative for a slap sent before its card could have been seen).
        computer: True for a computer's slap.
    """

    sent: int
    arrived: int
    latency: int
    reaction: int
    computer: bool = False

    def json(self) -> dict[str, int | bool]:
        """The figures as the game's record keeps them."""
        return {"sent": self.sent, "arrived": self.arrived, "latency": self.latency,
                "reaction": self.reaction, "computer": self.computer}


def time_slap(pile: int, arrived: float, stamps: SendStamps, trips: RoundTrips,
              origin: float = 0.0) -> SlapTiming | None:
    """The timing of a slap naming ``pile`` that arrived at ``arrived``.

    Args:
        pile: the pile the slap names (the number of its top card).
        arrived: when it arrived (monotonic seconds, the clock of ``stamps``).
        stamps: the slapper's send stamps.
        trips: the slapper's connection's round trips (its latency).
        origin: the clock's time that the figures count from (e.g. the game's start).

    Returns:
        The figures, or None when card ``pile`` was never sent to the slapper
        (pile 0, or a card long gone): the judge then times it itself.
    """
    sent = stamps.at(pile)
    if sent is None:
        return None
    sent_ms, arrived_ms, latency = ms(sent - origin), ms(arrived - origin), trips.latency_ms
    return SlapTiming(sent_ms, arrived_ms, latency, arrived_ms - sent_ms - 2 * latency)
