"""Idle clocks and the flips made for seats: computer, auto-flip, gone, idle.

For each battle still to be played:

* a computer seat flips a *wait* into it: ``settings.computer_delay`` scaled
  by the game's pace (:data:`PACE_DELAY`), plus, after a battle with a peace,
  the time the peace is shown (``settings.peace_show`` scaled by
  :data:`PACE_PEACE`), so that everyone can read it;
* a human with auto-flip on flips after that wait as well, and so does a gone
  (or away) player's seat (:mod:`cardwar.tables.presence`);
* the game's pace is ``normal`` while a human in play flips by hand; when
  nobody in play does (everyone on auto, away, or only computers left) it is
  the fastest pace its human players chose; once a player who is out
  fast-forwarded (``table.skipping``) there is no wait at all, and a player
  still in play who finished the game at once (no other human in play) is
  flipped for like a computer;
* any other human still to flip is flipped for after ``settings.flip_timeout``,
  counted only once a human is kept waiting: the idle clock of a battle starts
  at its first flip by a human (by hand or by auto-flip), never at a
  computer's. So a game in which every human is idle does not play itself,
  and nobody is hurried by a computer. The start is published as an ``idle``
  message (``battle``, ``left`` seconds). A seat whose clock runs out
  ``settings.idle_away`` battles in a row is marked away (:meth:`Clocks.note_idle`).
* In a game in turns (:attr:`cardwar.tables.kinds.Kind.clock_at_start`) only
  the seat to move flips, so nobody can flip first: its clock starts with
  the step, while a human has put down a card (themselves or by auto-flip)
  within the last :data:`ACTIVE_STEPS` cards and another human in play (not
  away) is kept waiting: never against the computer alone. Two idle humans'
  game stops after a few cards put down for them.

Timers carry the battle they were armed for, so a late one does nothing.
Every process following a game arms them; the locked, version-checked flip
makes all but the first firing a no-op.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any

from cardwar.settings import Settings

from .events import FlipBy, Flipped, Idle, TableError
from .table import Table
from .timers import Timers

#: How each pace scales ``settings.computer_delay`` (the wait before an automatic flip).
PACE_DELAY: dict[str, float] = {"slow": 2.5, "normal": 1.0, "fast": 0.25}
#: How each pace scales ``settings.peace_show`` (how long a peace stays on the table).
PACE_PEACE: dict[str, float] = {"slow": 1.5, "normal": 1.0, "fast": 0.75}

#: Seconds added to the idle clock of a battle found half-flipped when a table
#: is loaded (after a restart): a page retries its connection at most 15 s apart.
RECONNECT_GRACE = 15.0

#: In turns: cards since a human's last own card within which the idle clock still runs
#: (a payment of up to four cards and the court card that asked for it, plus one).
ACTIVE_STEPS = 6

#: ``flip(game_id, seat, by, battle)``: flip for a seat (the table service's).
FlipFor = Callable[[str, int, FlipBy, int], Awaitable[object]]

#: Seconds between tries of a timer's flip that the store could not save, and how many.
RETRY_AFTER = 2.0
RETRIES = 30

log = logging.getLogger("cardwar.tables")


class Clocks:
    """The timers of every game this process follows.

    Args:
        settings: ``flip_timeout``, ``computer_delay``, ``peace_show``,
            ``idle_away``, ``gone_after``.
        flip: flips for a seat when its timer fires.
        is_gone: ``is_gone(game_id, seat)``: the seat's player is away and
            played for (:meth:`cardwar.tables.presence.Presence.is_gone`).
        clock: monotonic seconds (a test may pass a fake one).
    """

    def __init__(self, settings: Settings, flip: FlipFor,
                 is_gone: Callable[[str, int], bool],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self.timers = Timers()
        self._flip = flip
        self._is_gone = is_gone
        self._now = clock
        #: how many flip timers this process has armed so far (every game)
        self.armed = 0
        # game -> (battle, deadline): the idle clock of that battle
        self._idle: dict[str, tuple[int, float]] = {}
        # game -> the last battle a human flipped in (themselves or by auto-flip)
        self._human_flip: dict[str, int] = {}
        # game -> seat -> battles in a row its idle clock flipped for it
        self._timed: dict[str, dict[int, int]] = {}
        # game -> (coming battle, when its wait began): timers armed again for the
        # same battle (a pace, auto-flip or presence change) wait only what is left
        self._began: dict[str, tuple[int, float]] = {}

    def arm_round(self, table: Table, flips: Sequence[Flipped] = ()) -> bool:
        """Arm the timers of ``table``'s coming battle (cancelling the earlier ones).

        Armed again for the same battle (a pace, an auto-flip or a presence
        changed), the automatic flips wait only what is left of the battle's
        wait: a pace chosen while a peace is shown never shows it longer.

        ``flips``: the ``flipped`` events that led to it (noted as
        :meth:`note_flip` notes them). Returns True when this started the
        coming step's idle clock (in turns: see the module docstring), which
        the caller publishes.
        """
        for event in flips:
            if event["by"] in ("player", "auto"):
                self._human_flip[table.id] = event["battle"]
        self.timers.cancel(table.id)
        started = self._start_turn_clock(table)
        if self.idle_left(table) is None and any(
                table.record.seats[s].kind == "human" for s in table.record.flipped):
            # loaded mid-battle (restart, another process): a human is waiting; the
            # others' pages may still be reconnecting (RECONNECT_GRACE) after a restart
            self._idle[table.id] = (table.steps + 1, self._now()
                                    + self.settings.flip_timeout + RECONNECT_GRACE)
        coming, now = table.steps + 1, self._now()
        began = self._began.get(table.id)
        if began is None or began[0] != coming:
            began = self._began[table.id] = (coming, now)
        delay = max(0.0, self.wait(table) - (now - began[1]))
        for seat in table.to_flip():
            rec = table.record.seats[seat]
            if rec.kind in ("computer", "left"):
                self.arm(table, seat, "computer", delay)
            elif rec.auto_flip:
                self.arm(table, seat, "auto", delay)
            elif self._is_gone(table.id, seat):
                self.arm(table, seat, "gone", delay)
            elif table.skipping:  # "Finish the game": the computer plays the asker's seat too
                self.arm(table, seat, "computer", delay)
            elif (left := self.idle_left(table)) is not None:
                self.arm(table, seat, "timer", left)
            # else: nobody is waiting yet, no idle clock (see the module docstring)
        return started

    def _start_turn_clock(self, table: Table) -> bool:
        """In turns, start the coming step's idle clock if a human is to move, the
        humans are active and another human in play (not away) waits for them
        (the module docstring); True when started."""
        coming = table.steps + 1
        if not table.kind.clock_at_start or self.idle_left(table) is not None:
            return False
        if self._human_flip.get(table.id, -ACTIVE_STEPS) < coming - ACTIVE_STEPS:
            return False
        waited = [s for s in table.to_flip() if table.record.seats[s].kind == "human"
                  and not table.record.seats[s].auto_flip and not self._is_gone(table.id, s)]
        if not waited or not any(s not in waited and not self._is_gone(table.id, s)
                                 for s in table.humans_in_play()):
            return False  # nobody kept waiting, or only computers: no countdown
        self._idle[table.id] = (coming, self._now() + self.settings.flip_timeout)
        return True

    def pace(self, table: Table) -> str:
        """The game's pace now: ``normal`` while a human in play flips by hand (and
        is not away); otherwise the fastest pace its human players chose."""
        if any(not self._is_gone(table.id, s) for s in table.by_hand()):
            return "normal"
        paces = [rec.pace for rec in table.record.seats if rec.kind == "human"]
        return min(paces, key=lambda p: PACE_DELAY.get(p, 1.0)) if paces else "normal"

    def wait(self, table: Table) -> float:
        """Seconds before an automatic flip (computer, auto-flip, gone) of the
        coming battle: the pace's delay, plus the time the last battle's peace
        is shown when it had one; none once the game is fast-forwarded."""
        if table.skipping:
            return 0.0
        pace = self.pace(table)
        # a slap game's cards come no faster than its slap window (RULES.md 11.6)
        wait = max(self.settings.computer_delay * PACE_DELAY.get(pace, 1.0),
                   table.kind.min_wait)
        if bool(getattr(table.last, "peaces", None)):  # a peace (never a card in turns)
            wait += self.peace_shown(pace)
        return wait

    def peace_shown(self, pace: str) -> float:
        """Seconds a battle with a peace stays on the table before any automatic
        flip at ``pace`` (``settings.peace_show`` scaled by :data:`PACE_PEACE`)."""
        return self.settings.peace_show * PACE_PEACE.get(pace, 1.0)

    def note_idle(self, table: Table, event: Flipped) -> bool:
        """Count the flips the idle clock made for the seat of ``event``; True when
        that seat's clock has now run out ``settings.idle_away`` battles in a row
        (mark it away). A flip by the player starts the count again. Not in turns,
        where the clocks of idle humans stop the game by themselves."""
        if table.kind.clock_at_start:
            return False
        counts = self._timed.setdefault(table.id, {})
        seat = event["seat"]
        if event["by"] == "timer":
            counts[seat] = counts.get(seat, 0) + 1
            return counts[seat] >= self.settings.idle_away
        if event["by"] in ("player", "auto"):
            counts.pop(seat, None)
        return False

    def note_back(self, game_id: str, seat: int) -> None:
        """``seat``'s player took their seat back
        (:meth:`cardwar.tables.presence.Presence.back`): the battles in a row
        its idle clock flipped for it are counted from naught."""
        counts = self._timed.get(game_id)
        if counts is not None:
            counts.pop(seat, None)

    def note_flip(self, table: Table, event: Flipped) -> bool:
        """Note the ``flipped`` ``event``; start the battle's idle clock if it
        makes someone wait. True when a clock was started (and timers armed)."""
        battle, by = event["battle"], event["by"]
        if by in ("player", "auto"):
            self._human_flip[table.id] = battle
        if battle != table.steps + 1 or self.idle_left(table) is not None:
            return False
        if by not in ("player", "auto"):  # a computer's flip keeps no human waiting
            return False
        timeout = self.settings.flip_timeout
        self._idle[table.id] = (battle, self._now() + timeout)
        for seat in table.to_flip():
            rec = table.record.seats[seat]
            if rec.kind == "human" and not rec.auto_flip and not self._is_gone(table.id, seat):
                self.arm(table, seat, "timer", timeout)
        return True

    def idle_left(self, table: Table) -> float | None:
        """Seconds left on the idle clock of the coming battle, or None if not started."""
        clock = self._idle.get(table.id)
        if clock is None or clock[0] != table.steps + 1 or table.status != "playing":
            return None
        return max(0.0, clock[1] - self._now())

    def idle_message(self, table: Table) -> Idle:
        """The ``idle`` message: the coming battle's idle clock started (``left`` seconds)."""
        left = self.idle_left(table)
        return Idle(type="idle", seq=None, battle=table.steps + 1,
                    left=None if left is None else round(left, 1))

    def arm(self, table: Table, seat: int, by: FlipBy, delay: float) -> None:
        """In ``delay`` seconds flip for ``seat`` (``by``) if the battle is still to come."""
        game_id, battle = table.id, table.steps + 1
        self.armed += 1
        self.timers.arm(game_id, delay, lambda: self._fire(game_id, seat, by, battle))

    async def _fire(self, game_id: str, seat: int, by: FlipBy, battle: int,
                    failures: int = 0) -> None:
        """Flip for ``seat``; when the store (or the bus) fails, try the same
        flip again every :data:`RETRY_AFTER` seconds, up to :data:`RETRIES` times
        (a flip of the battle that moved on meanwhile is a ``TableError``: dropped)."""
        try:
            await self._flip(game_id, seat, by, battle)
        except TableError:
            pass
        except Exception:
            if failures >= RETRIES:
                log.error("game %s: gave up a %s flip for seat %s after %s tries",
                          game_id, by, seat, failures + 1, exc_info=True)
                return
            log.warning("game %s: a %s flip for seat %s failed; trying again in %s s",
                        game_id, by, seat, RETRY_AFTER, exc_info=failures == 0)
            self.timers.arm(game_id, RETRY_AFTER,
                            lambda: self._fire(game_id, seat, by, battle, failures + 1))

    def arm_gone(self, game_id: str, job: Callable[[], Coroutine[Any, Any, Any]]) -> None:
        """Run ``job()`` in ``settings.gone_after`` seconds (a key of its own: the
        next battle does not cancel it)."""
        self.timers.arm(f"{game_id}#gone", self.settings.gone_after, job)

    def forget(self, game_id: str) -> None:
        """``game_id`` ended: cancel its timers and drop its clocks."""
        self.timers.cancel(game_id)
        self.timers.cancel(f"{game_id}#gone")
        self._idle.pop(game_id, None)
        self._human_flip.pop(game_id, None)
        self._timed.pop(game_id, None)
        self._began.pop(game_id, None)

    def games(self) -> int:
        """How many games have an idle clock or a human flip noted here."""
        return len(self._idle.keys() | self._human_flip.keys() | self._began.keys())

    def count(self, game_id: str) -> int:
        """How many flip timers are armed for ``game_id``."""
        return self.timers.count(game_id)

    async def close(self) -> None:
        """Cancel every timer and every job still running."""
        await self.timers.close()
