"""The slap games' timers (RULES.md 11.6, 11.8): what happens at a table by itself.

Putting cards down for computer, auto-flip and away seats is the clocks'
(:mod:`.clocks`: the seat to move is flipped for at the game's pace, never
sooner). What only the slap games have is armed here, after every change of
a slap game's table (:meth:`SlapTimers.after`, called by
:class:`~.triggers.Triggers` for every change applied, here or from another
process, even one that stored nothing: a slap held in a window):

* the judge's next deadline (:meth:`~.slap_judge.SlapJudge.due`): the end of an
  open slap window, or a waiting pile's trick wait (:data:`~.slap_kind.TRICK_WAIT`
  after its last card), then :func:`~.slap_kind.poll`;
* the slaps of the seats the computer plays (a computer's seat, a player who
  left or was handed over; every seat once the game is fast-forwarded) on
  the piles still on the table (a double covered by the next card is still
  slappable), each its drawn reaction after its card was put down
  (RULES.md 11.8), then :func:`~.slap_kind.computer_slap`; only by the
  process that played the card (:attr:`SlapKind.intents` are drawn on every
  process following the game: the draws stay in step).

An idle or away player simply does not slap. Each timer is a
``loop.call_later`` handle under the game's key ``"{id}#slap"``, cancelled
and armed again after every change; a late one finds nothing to do (the
version-checked change makes it a no-op). Nothing here sleeps: the delays
come from the service's clock.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from .errors import TableError
from .slap_kind import SlapKind, computer_slap, poll
from .table import Table
from .timers import Timers

__all__ = ["SlapTimers", "computer_played"]

log = logging.getLogger("cardwar.tables")

#: ``apply(game_id, action)``: the service's change of a table.
Apply = Callable[[str, Callable[[Table], Any]], Awaitable[object]]


def computer_played(table: Table, seat: int) -> bool:
    """True when the computer plays ``seat`` (a computer's, its player left or
    was handed over), or the game is fast-forwarded."""
    return table.record.seats[seat].kind in ("computer", "left") or table.skipping


class SlapTimers:
    """The slap games' timers of one table service (see the module docstring).

    Args:
        timers: the service's timers (:attr:`Clocks.timers`).
        apply: changes a table (:meth:`TableService.apply`).
        clock: monotonic seconds, the service's.
    """

    def __init__(self, timers: Timers, apply: Apply,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.timers = timers
        self._apply = apply
        self._now = clock
        #: how many computer slaps this process armed (tests read it)
        self.armed_slaps = 0

    @staticmethod
    def key(game_id: str) -> str:
        """The timers' key of ``game_id``."""
        return f"{game_id}#slap"

    def after(self, table: Table, events: Sequence[Mapping[str, object]], *,
              here: bool) -> None:
        """``table`` changed (``events`` applied, maybe none; ``here``: by this
        process): arm its judge's deadline and, ``here``, the computers' slaps."""
        kind = table.kind
        if not isinstance(kind, SlapKind):
            return
        key = self.key(table.id)
        self.timers.cancel(key)
        if table.status != "playing":
            return
        now, game_id = self._now(), table.id
        due = kind.judge.due()
        if due is not None:
            self.timers.arm(key, due - now, lambda: self._run(game_id, poll))
        if not here:
            return
        for intent in kind.intents:  # the piles still on the table (SlapKind.intents)
            put = kind.judge.put_at(intent.pile)
            if put is None or not computer_played(table, intent.seat):
                continue
            self.armed_slaps += 1
            seat, pile, reaction = intent.seat, intent.pile, intent.reaction

            def slap(t: Table, seat: int = seat, pile: int = pile,
                     reaction: int = reaction) -> bool:
                return computer_slap(t, seat, pile, reaction)

            self.timers.arm(key, put + reaction / 1000 - now,
                            lambda slap=slap: self._run(game_id, slap))  # type: ignore[misc]

    async def _run(self, game_id: str, action: Callable[[Table], bool]) -> None:
        try:
            await self._apply(game_id, action)
        except TableError:
            pass  # the game moved on (or ended): nothing to do
        except Exception:
            log.warning("game %s: a slap game's timer failed", game_id, exc_info=True)

    def forget(self, game_id: str) -> None:
        """``game_id`` ended or went away: cancel its timers."""
        self.timers.cancel(self.key(game_id))
