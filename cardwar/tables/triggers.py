"""What events trigger once applied to a table: the one home for it.

A table's events are applied in two places: by the process that made the
change (:meth:`TableService.apply`, then published) and by every other
process following the game (:meth:`Cluster.on_remote`, or a catch-up from
the store). Both then call :meth:`Triggers.after`, which decides

* presence: the seats renumbered by a ``started`` or lobby ``left`` seating,
  a seat played by the computer now (``handed``, ``left``), and, for flips
  made here, a seat idle battle after battle (away) or back by hand;
* timers (:mod:`.clocks`): the coming step's flips re-armed when the game
  moved on (a step, the start, a pace, a fast-forward, an auto-flip, a seat
  handed over or left), a flip noted otherwise; the ``idle`` message of a
  clock started here;
* metrics: the steps played here (with the flip-to-result latency), games
  in progress when one starts or ends (and an ended game's clocks let go);
* listings: the open tables page (:mod:`.listing`), for changes made here;
* a slap game's own timers (:mod:`.slap_timers`): after every change, even
  one that stored nothing (a slap held in a window).

:func:`wire` is the one function turning a stored event into the message
it was published as.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import cast

from cardwar.bus import Bus, Message
from cardwar.obs.metrics import battle_played, card_put_down

from .clocks import Clocks
from .events import Event, Flipped
from .listing import OpenTables
from .presence import Presence
from .records import StoredEvent
from .slap_timers import SlapTimers
from .table import Table

__all__ = ["REARM", "Triggers", "wire"]

#: Stored events after which the coming step's timers are armed again (with the
#: kind's step event: :attr:`Kind.step`).
REARM = frozenset({"started", "pace", "fast_forward", "left", "auto_flip", "handed"})


def wire(event: StoredEvent) -> Message:
    """A stored event as the bus message (and the page's message) it was published as."""
    return {"type": event.type, "seq": event.seq, **event.data}


class Triggers:
    """Decides what a table's applied events trigger (see the module docstring).

    Args:
        bus: where this process publishes (``idle`` messages).
        clocks, presence, open_tables: the parts they trigger.
        status_changed: called with the game id and each event (a game
            started or ended: the games-in-progress gauge).
    """

    def __init__(self, bus: Bus, clocks: Clocks, presence: Presence, open_tables: OpenTables,
                 status_changed: Callable[[str, Mapping[str, object]], None],
                 slaps: SlapTimers | None = None) -> None:
        self.bus = bus
        #: the slap games' timers (:mod:`.slap_timers`), armed after every change
        self.slaps = slaps
        self.clocks = clocks
        self.presence = presence
        self.open_tables = open_tables
        self._status_changed = status_changed

    def moved(self, game_id: str, event: Mapping[str, object]) -> None:
        """An event that moved the players (``started`` with its seating,
        ``left`` in the lobby): presence follows them (once, however it arrives)."""
        seating = event.get("seating")
        if event.get("type") in ("started", "left") and isinstance(seating, list):
            seq = event.get("seq")
            self.presence.reseat(game_id, [int(s) for s in seating],
                                 seq if isinstance(seq, int) else None)

    async def after(self, table: Table, events: Sequence[Mapping[str, object]], *,
                    here: bool, latency: float | None = None, arm: bool = True) -> None:
        """``events`` were just applied to ``table``: made ``here`` (saved, and
        published as they are counted) or by another process (already applied).

        ``latency``: seconds from the request to the result, when someone
        waited for it (``battle_played``). ``arm`` False (events of another
        process caught up with by one that does not follow the game,
        :meth:`Cluster.catch_up_table`): no timer is armed or noted.
        """
        step = table.kind.step
        flips = [cast(Flipped, e) for e in events if e.get("type") == "flipped"]
        for event in events:
            kind = event.get("type")
            if here:
                self.moved(table.id, event)
                await self.bus.publish(table.id, event)
                if kind == step:
                    self._count_step(table, step, latency)
                if kind in ("handed", "left") and table.status == "playing":
                    self.presence.handed_over(table.id, cast(int, event["seat"]))
                if kind == "left" and table.status == "lobby" and table.creator is not None \
                        and table.creator not in self.presence.online(table.id):
                    self.presence.arm_gone(table.id, table.creator)  # an away creator leaves too
            self._status_changed(table.id, event)
        if here and events:
            await self.open_tables.changed(table, cast(Sequence[Event], events))
        if not arm:
            return
        if self.slaps is not None:
            self.slaps.after(table, events, here=here)
        if table.status != "playing":
            return
        kinds = {e.get("type") for e in events}
        idle = False
        if kinds & (REARM | {step}):
            idle = self.clocks.arm_round(table, flips)  # in turns: the clock starts with the step
        else:
            for event in flips:
                idle = self.clocks.note_flip(table, event) or idle
        if idle and here:  # the process that flipped publishes its idle clock
            await self.bus.publish(table.id, self.clocks.idle_message(table))
        if here:
            for event in flips:  # idle battle after battle: away; a flip by hand: back
                if self.clocks.note_idle(table, event):
                    await self.presence.mark_away(table, event["seat"])
                elif event["by"] == "player":
                    await self.presence.back(table.id, event["seat"])

    @staticmethod
    def _count_step(table: Table, step: str, latency: float | None) -> None:
        if step == "battle":
            battle_played(table.variant.name, latency)
        else:  # a game in turns (or any other kind): its step is one card
            card_put_down(table.variant.name, latency)
