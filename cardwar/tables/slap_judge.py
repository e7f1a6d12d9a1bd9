"""Who slapped first, online: the table's judge of a slap game (RULES.md 11.6).

:class:`SlapJudge` plays a :class:`~cardwar.engine.slap.SlapGame` for the
table: every move goes through it, stamped with the time it reached the
table (monotonic seconds from an injected clock; nothing here sleeps), and
it pushes the moves on the game in the order it decides:

* **put down** (:meth:`~SlapJudge.put_down`): at once;
* **a slap** (:meth:`~SlapJudge.slap`, with the :class:`~.slap_timing.SlapTiming`
  measured where the socket is; :meth:`~SlapJudge.computer_slap` for a
  computer, whose reaction is its drawn delay, 11.8):

  - naming a pile that is still on the table and was slappable, by a seat
    that may slap: the first such slap opens the **window**; it and every
    slap that arrives within :data:`WINDOW` after it are held;
  - any other slap while no window is open: pushed at once (the game judges
    it wrong, too late, on an empty pile, a second slap, by a seat that is out);

* **the window's end** (:meth:`~SlapJudge.poll` at or after :meth:`~SlapJudge.due`):
  the held slaps that named a slappable pile, smallest reaction first
  (equal to the millisecond: the first seat round the table after the player
  who put down the top card), then the other held slaps in the order they
  arrived; the first valid one takes the pile and the rest are too late;
* **a pile waiting to be taken** (a completed payment, a payer who ran out,
  11.3, 11.7): taken (:class:`~cardwar.engine.slap.Close`) by :meth:`~SlapJudge.poll`
  no sooner than ``trick_wait`` (at least :data:`WINDOW`) after its last
  card was put down, and never while a window is open.

**[clarified]** RULES.md 11.6 waits 150 ms, the most latency a player is
credited with; but a slap comes back over the same way its card went out,
so a player 150 ms away from the server, as quick as the first slapper,
arrives up to 2 x 150 ms after them: the window is :data:`WINDOW` = twice
:data:`~.slap_timing.LATENCY_CAP_MS`, so that every player within the cap
who reacted as fast is heard (the reaction credits both ways too, see
:mod:`.slap_timing`). A slap that arrives while a window is open is held with the
others, even one naming a pile that was not slappable: the pile is about to
go, so such a slap is too late rather than wrong. A slap stamped at the
window's end is still heard; a card put down then comes after the decision.

What it did is in its outbox (:meth:`~SlapJudge.take_outbox`: engine
:class:`~cardwar.engine.slap.Step` s and :class:`Judged` slaps, in order),
and every slap pushed is in :attr:`~SlapJudge.judged` with its figures, for
the record and for the page's line ("Ann slapped the double first: 312 ms
against your 355 ms"); :meth:`~SlapJudge.decided_slaps` gives the slaps that
counted as ``--slaps`` takes them (RULES.md 11.9), so
:func:`~cardwar.engine.slap.play_decided` replays the same game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardwar.engine.slap import (
    Close,
    DecidedSlap,
    PutDown,
    Slap,
    SlapError,
    SlapGame,
    Step,
    Verdict,
)

from .slap_timing import LATENCY_CAP_MS, SlapTiming, ms

__all__ = ["WINDOW", "Judged", "SlapJudge"]

#: Seconds the table waits after the first valid slap arrives (RULES.md 11.6): the
#: most a slap as quick from a player within the latency cap can arrive after it
#: (the cap both ways, see the module docstring).
WINDOW = 2 * LATENCY_CAP_MS / 1000


@dataclass(frozen=True, slots=True)
class Judged:
    """A slap the judge pushed on the game, with its figures.

    Attributes:
        seat: the slapper's table seat.
        pile: the pile it named.
        timing: its figures (ms).
        step: what the game did with it (``step.verdict``).
        at: cards put down when it was pushed (``DecidedSlap.at``).
    """

    seat: int
    pile: int
    timing: SlapTiming
    step: Step
    at: int

    @property
    def verdict(self) -> Verdict:
        """The game's verdict on it."""
        verdict = self.step.verdict
        assert verdict is not None  # a slap's step always has one
        return verdict

    def decided(self) -> DecidedSlap:
        """As ``--slaps`` writes it (``STEP:SEAT`` or ``STEP:SEAT@AT``)."""
        return DecidedSlap(self.pile, self.seat, self.at)

    def json(self) -> dict[str, Any]:
        """The slap as the game's record keeps it: who, which pile, the verdict, the figures."""
        return {"seat": self.seat, "pile": self.pile, "at": self.at,
                "verdict": self.verdict.value, **self.timing.json()}


@dataclass(frozen=True, slots=True)
class _Held:
    seat: int
    pile: int
    timing: SlapTiming
    valid: bool  # named a slappable pile still on the table, by a seat that may slap


class SlapJudge:
    """The table's judge of one slap game (see the module docstring).

    Args:
        game: the game, fresh or in progress; from now on only the judge moves it.
        window: seconds the first valid slap waits for the others (RULES.md 11.6).
        trick_wait: seconds a pile waiting to be taken stays after its last card
            was put down (at least ``window``).
        origin: the clock's time the figures of judge-timed slaps count from.

    Raises:
        ValueError: ``trick_wait`` shorter than ``window``, or a negative window.
    """

    def __init__(self, game: SlapGame, *, window: float = WINDOW,
                 trick_wait: float | None = None, origin: float = 0.0) -> None:
        trick_wait = window if trick_wait is None else trick_wait
        if window < 0 or trick_wait < window:
            raise ValueError("the window must be >= 0 and the trick wait at least the window")
        self.game = game
        self.window = window
        self.trick_wait = trick_wait
        self.origin = origin
        #: every slap pushed, in order
        self.judged: list[Judged] = []
        self._outbox: list[Step | Judged] = []
        self._held: list[_Held] = []
        self._closes_at: float | None = None  # the open window's end
        self._put_at: dict[int, float] = {}  # card number -> when it was put down

    # -- reading ------------------------------------------------------------
    def due(self) -> float | None:
        """When :meth:`poll` next has something to do: the open window's end, or
        when a pile waiting to be taken may go; None: nothing will happen by itself."""
        if self._closes_at is not None:
            return self._closes_at
        game = self.game
        if game.window is not None and not game.over:
            return self._put_at.get(game.cards_played, self.origin) + self.trick_wait
        return None

    def put_at(self, pile: int) -> float | None:
        """When card ``pile`` was put down here (the clock's seconds), or None (not
        here: before this process loaded the game, or long ago)."""
        return self._put_at.get(pile)

    def holding(self) -> bool:
        """True while a window is open (slaps are held, not decided yet)."""
        return self._closes_at is not None

    def copy(self, game: SlapGame) -> SlapJudge:
        """An independent copy judging ``game`` (a copy of :attr:`game`)."""
        other = SlapJudge.__new__(SlapJudge)
        other.__dict__.update(self.__dict__)
        other.game, other.judged = game, list(self.judged)
        other._outbox, other._held = list(self._outbox), list(self._held)
        other._closes_at, other._put_at = self._closes_at, dict(self._put_at)
        return other

    def recorded(self, move: PutDown | Slap | Close, now: float,
                 timing: SlapTiming | None = None) -> Step | Judged:
        """Push ``move``, decided elsewhere (another process, or the stored game
        replayed), on the game at once, as the record says; ``timing``: a slap's
        figures as recorded. Not put in the outbox.

        Raises:
            SlapError, GameOverError: a move the game cannot take.
        """
        step = self.game.push(move)
        if isinstance(move, PutDown):
            self._put_at[self.game.cards_played] = now
            self._put_at.pop(self.game.cards_played - 64, None)
            return step
        if isinstance(move, Slap):
            judged = Judged(move.seat, move.pile, timing or SlapTiming(0, 0, 0, 0), step,
                            self.game.cards_played)
            self.judged.append(judged)
            return judged
        return step

    def take_outbox(self) -> list[Step | Judged]:
        """What the judge did since the last call, in order (engine steps, judged slaps)."""
        out, self._outbox = self._outbox, []
        return out

    def decided_slaps(self) -> list[DecidedSlap]:
        """The slaps that counted (valid or wrong), as ``--slaps`` takes them (11.9)."""
        return [j.decided() for j in self.judged if j.verdict.counts]

    # -- moving -------------------------------------------------------------
    def poll(self, now: float) -> None:
        """Do what is due at ``now``: decide a window that is over, then take a
        waiting pile whose wait is over (:meth:`due`)."""
        if self._closes_at is not None and now >= self._closes_at:
            self._decide()
        due = self.due()
        if self._closes_at is None and due is not None and now >= due:
            self._push(Close())

    def put_down(self, now: float, seat: int | None = None) -> Step:
        """The seat to move (``seat``, checked; None: whoever it is) puts down a card at ``now``.

        Raises:
            WindowOpenError: a pile waits to be taken (its wait is not over).
            SlapError: ``seat`` is not to move; GameOverError: the game is over.
        """
        self.poll(now)
        step = self._push(PutDown(seat))
        self._put_at[self.game.cards_played] = now
        self._put_at.pop(self.game.cards_played - 64, None)  # at most 52 on the table
        return step

    def slap(self, seat: int, pile: int, now: float, timing: SlapTiming | None = None) -> None:
        """``seat`` slapped, naming ``pile``; the slap reached the table at ``now``.

        ``timing``: its figures, measured by the process that holds the
        slapper's socket (:func:`~.slap_timing.time_slap`); None (the card was
        never sent to that page): timed here from when the card was put down,
        with no latency credited.

        Raises:
            SlapError: no such seat, or a pile not put down yet (nothing changes).
        """
        game = self.game
        if not 0 <= seat < game.players:
            raise SlapError(f"there is no seat {seat}: seats are 0 to {game.players - 1}")
        if not 0 <= pile <= game.cards_played:
            raise SlapError(f"seat {seat}'s slap names pile {pile}, but {game.cards_played} "
                            "cards were put down")
        if self._closes_at is not None and now > self._closes_at:
            self.poll(now)  # over before this slap came: decided without it
        if timing is None:
            sent, arrived = ms(self._put_at.get(pile, now) - self.origin), ms(now - self.origin)
            timing = SlapTiming(sent, arrived, 0, arrived - sent)
        self._arrive(_Held(seat, pile, timing, self._valid(seat, pile)), now)

    def computer_slap(self, seat: int, pile: int, reaction_ms: int, now: float) -> None:
        """A computer's slap naming ``pile``, reaching the table at ``now``, after its
        drawn reaction ``reaction_ms`` (RULES.md 11.8; no latency).

        Raises:
            SlapError: as :meth:`slap`.
        """
        sent = ms(self._put_at.get(pile, now) - self.origin)
        timing = SlapTiming(sent, ms(now - self.origin), 0, reaction_ms, computer=True)
        self.slap(seat, pile, now, timing)

    # -- inside -------------------------------------------------------------
    def _valid(self, seat: int, pile: int) -> bool:
        game = self.game
        return pile > 0 and game.pattern(pile) is not None and game.may_slap(seat)

    def _arrive(self, held: _Held, now: float) -> None:
        if self._closes_at is not None:
            self._held.append(held)
        elif held.valid:
            self._held.append(held)
            self._closes_at = now + self.window
        else:
            self._judge(held)
        self.poll(now)  # a window ending now (or a zero window) is decided with it

    def _decide(self) -> None:
        """The window is over: push the held slaps in the order decided (11.6)."""
        game = self.game
        putter = game.laid_by[-1] if game.laid_by else 0
        held, self._held, self._closes_at = self._held, [], None
        valid = sorted((h for h in held if h.valid),
                       key=lambda h: (h.timing.reaction, (h.seat - putter - 1) % game.players))
        for h in valid + [h for h in held if not h.valid]:
            self._judge(h)

    def _judge(self, held: _Held) -> None:
        at = self.game.cards_played
        step = self._push(Slap(held.seat, held.pile), outbox=False)
        judged = Judged(held.seat, held.pile, held.timing, step, at)
        self.judged.append(judged)
        self._outbox.append(judged)

    def _push(self, move: PutDown | Slap | Close, *, outbox: bool = True) -> Step:
        step = self.game.push(move)
        if outbox:
            self._outbox.append(step)
        return step
