"""Egyptian Ratscrew and Slapjack, one move at a time (RULES.md section 11).

:class:`SlapGame` holds the piles, the pile on the table and whose turn it
is, and moves only by :meth:`~SlapGame.push` (a move in, a
:class:`~.events.Step` out, as python-chess's ``Board.push``):

* :class:`~.events.PutDown`: the seat to move puts down its top card; paying
  round the table (11.3); a pile that is to be taken (a completed payment, a
  payer who ran out, nobody left to pay or holding a card) is not taken yet:
  it waits for the slap window (:attr:`~SlapGame.window`, a
  :class:`~.events.WindowOpened` event).
* :class:`~.events.Slap`: judged on the pile it names (11.5-11.6): valid
  (takes the pile), wrong (burns or gives), too late, on an empty pile, a
  second slap on the same pile, by a seat that is out: the last four change
  nothing at all.
* :class:`~.events.Close`: the window is over; the waiting pile goes to its taker.

Seats are table seats ``0..n-1``; the moves' order is the order the table
decided them. **[clarified]** Where RULES.md 11 is silent the game does
this: with slapping in off, a player who holds no cards is out at once,
except the player of the last court card on the pile, who stays in until the
pile is decided (it may come back to them, as in 10.6); a Slapjack card given
to a player who is out goes face down under the pile instead; a draw at the
card limit comes when card 10,001 would be put down (slaps on card 10,000
and its window still count), and leaves the pile on the table.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence

from ..cards import Card
from ..ending import GameOverError, Outcome, Reason
from .events import (
    CardDown,
    CardsBurned,
    Close,
    Event,
    GameEnded,
    Move,
    PileTaken,
    PutDown,
    SeatOut,
    Slap,
    SlapError,
    SlapJudged,
    Step,
    Taking,
    Verdict,
    WindowOpened,
    WindowOpenError,
)
from .rules import Pattern, SlapRules, pattern_of


def check_piles(piles: Sequence[Sequence[Card]]) -> None:
    """Validate a deal for a slap game: 2-4 non-empty piles, no card twice.

    Raises:
        OptionError: not 2, 3 or 4 piles.
        ValueError: a card appears twice, or a pile is empty.
    """
    from ..variants import ERS

    ERS.check(len(piles))
    if len(set().union(*piles)) != sum(len(p) for p in piles):
        raise ValueError("a card appears twice")
    if not all(piles):
        raise ValueError("every seat needs at least one card")


class SlapGame:
    """A game of Egyptian Ratscrew or Slapjack in progress (RULES.md section 11).

    Read, don't change: ``rules``, ``players``, ``piles`` (per seat, top card
    first), ``table`` (the pile, bottom card first, burned cards included),
    ``face_up`` and ``laid_by`` (the pile's face-up cards in the order put
    down and who put each down), ``to_move``, ``owed``, ``owed_for``,
    ``court_seat`` (who put down the last court card on the pile), ``window``
    (the seat that takes the pile when the window closes, or None),
    ``out`` (seat -> cards put down when it went out), ``cards_played``,
    ``tricks``, ``slaps``, ``burned``, ``moves`` (every move pushed), and once
    over ``outcome``, ``reason`` and ``winner``.

    Args:
        piles: each seat's pile after the deal, top card first (any sizes).
        rules: the table's options (default: Egyptian Ratscrew, standard).

    Raises:
        OptionError: not 2, 3 or 4 piles.
        ValueError: a card twice, or an empty pile.
    """

    def __init__(self, piles: Sequence[Sequence[Card]], rules: SlapRules | None = None) -> None:
        check_piles(piles)
        self.rules = rules or SlapRules()
        self.players = len(piles)
        self.piles: list[deque[Card]] = [deque(p) for p in piles]
        self.cards_in_play = sum(len(p) for p in piles)
        self.table: deque[Card] = deque()
        self.face_up: list[Card] = []
        self.laid_by: list[int] = []
        self._patterns: list[Pattern | None] = []
        self._taken_at = 0
        self._slapped: set[int] = set()
        self.to_move = 0
        self.owed = 0
        self.owed_for: Card | None = None
        self.court_seat: int | None = None
        self.window: int | None = None
        self._window_why = Taking.TRICK
        self.out: dict[int, int] = {}
        self.cards_played = 0
        self.tricks = 0
        self.slaps = 0
        self.burned = 0
        self.outcome: Outcome | None = None
        self.reason: Reason | None = None
        self.winner: int | None = None
        self.moves: list[Move] = []

    @classmethod
    def replay(cls, piles: Sequence[Sequence[Card]], rules: SlapRules | None,
               moves: Iterable[Move]) -> SlapGame:
        """A game dealt ``piles`` after every move of ``moves``, pushed in order.

        Raises:
            SlapError, GameOverError: a move the game could not take.
        """
        game = cls(piles, rules)
        for move in moves:
            game.push(move)
        return game

    def copy(self) -> SlapGame:
        """An independent copy of the game as it stands; moves on it leave this one alone."""
        other = SlapGame.__new__(SlapGame)
        other.__dict__.update(self.__dict__)
        other.piles = [deque(p) for p in self.piles]
        other.table = deque(self.table)
        other.face_up, other.laid_by = list(self.face_up), list(self.laid_by)
        other._patterns, other._slapped = list(self._patterns), set(self._slapped)
        other.out, other.moves = dict(self.out), list(self.moves)
        return other

    # -- reading ------------------------------------------------------------
    @property
    def over(self) -> bool:
        """True once the game has an outcome."""
        return self.outcome is not None

    def counts(self) -> tuple[int, ...]:
        """Cards in each seat's pile."""
        return tuple(len(p) for p in self.piles)

    def pattern(self, pile: int | None = None) -> Pattern | None:
        """The pattern pile ``pile`` showed (default: the pile as it is), if it is still
        on the table and was slappable (RULES.md 11.4)."""
        pile = self.cards_played if pile is None else pile
        if self.over or not self._taken_at < pile <= self.cards_played:
            return None
        return self._patterns[pile - self._taken_at - 1]

    def may_slap(self, seat: int) -> bool:
        """True when a slap by ``seat`` could count: not out, and holding cards or
        allowed to slap in (11.5, 11.7)."""
        return (not self.over and seat not in self.out
                and (bool(self.piles[seat]) or self.rules.slap_in))

    # -- moving -------------------------------------------------------------
    def push(self, move: Move) -> Step:
        """Take ``move`` and return what it did (the module docstring says how).

        A move that raises leaves the game as it was.

        Raises:
            GameOverError: a card put down or a window closed after the end.
            WindowOpenError: a card put down while a pile waits for its window.
            SlapError: a seat that does not exist, a card put down by a seat
                not to move, a slap naming a card not put down yet.
        """
        events: list[Event] = []
        if isinstance(move, PutDown):
            self._put_down(move, events)
        elif isinstance(move, Slap):
            self._slap(move, events)
        elif isinstance(move, Close):
            if self.over:
                raise GameOverError("the game is over")
            if self.window is not None:
                self._take(self.window, self._window_why, events)
        else:
            raise SlapError(f"not a move: {move!r}")
        self.moves.append(move)
        return Step(number=len(self.moves), move=move, events=tuple(events),
                    cards_played=self.cards_played,
                    to_move=None if self.over else self.to_move, owed=self.owed,
                    window=self.window, counts=self.counts(), pile=len(self.table),
                    outcome=self.outcome)

    def put_down(self, seat: int | None = None) -> Step:
        """``push(PutDown(seat))``."""
        return self.push(PutDown(seat))

    def slap(self, seat: int, pile: int) -> Step:
        """``push(Slap(seat, pile))``."""
        return self.push(Slap(seat, pile))

    def close(self) -> Step:
        """``push(Close())``."""
        return self.push(Close())

    def _put_down(self, move: PutDown, events: list[Event]) -> None:
        if self.over:
            raise GameOverError("the game is over")
        if self.window is not None:
            raise WindowOpenError(f"the pile waits for its slap window (seat {self.window} "
                                  "takes it): close the window first")
        if move.seat is not None and move.seat != self.to_move:
            self._check_seat(move.seat)
            raise SlapError(f"seat {move.seat} is not to move: seat {self.to_move} is")
        if self.cards_played >= self.rules.card_limit:  # 11.7: a draw
            self._finish(Outcome.DRAW, Reason.CARD_LIMIT, None, events)
            return
        seat = self.to_move
        card = self.piles[seat].popleft()  # the seat to move always holds a card
        self.table.append(card)
        self.face_up.append(card)
        self.laid_by.append(seat)
        self.cards_played += 1
        self._slapped.clear()
        pattern = pattern_of(self.face_up, self.rules.patterns)
        self._patterns.append(pattern)
        paying = self.owed > 0
        paid_for = self.owed_for if paying else None
        value = self.rules.value(card)
        if value:  # 11.3: the next player must pay for it
            self.court_seat, self.owed_for = seat, card
            payer = self._next_holder(seat, including=False)
            if payer is None:
                self._open(seat, Taking.UNPAID)
            else:
                self.owed, self.to_move = value, payer
        elif paying:
            self.owed -= 1
            if not self.owed:
                self._open(self._court(), Taking.TRICK)
            elif not self.piles[seat]:
                self._open(self._court(), Taking.UNPAID)
        else:
            self._pass_turn(seat)
        events.append(CardDown(self.cards_played, seat, card, paid_for, pattern, self.owed,
                               self.owed_for, self.to_move))
        if self.window is not None:
            events.append(WindowOpened(self.window, self._window_why))
        self._sweep(events)

    def _slap(self, move: Slap, events: list[Event]) -> None:
        seat, pile = move.seat, move.pile
        self._check_seat(seat)
        if not 0 <= pile <= self.cards_played:
            raise SlapError(f"seat {seat}'s slap names pile {pile}, but {self.cards_played} "
                            f"card{'' if self.cards_played == 1 else 's'} were put down")
        pattern: Pattern | None = None
        if pile == 0:
            verdict = Verdict.EMPTY_PILE
        elif self.over or pile <= self._taken_at:
            verdict = Verdict.TOO_LATE
        elif seat in self.out:
            verdict = Verdict.OUT
        elif not self.piles[seat] and not self.rules.slap_in:
            verdict = Verdict.NO_SLAP_IN
        elif seat in self._slapped:
            verdict = Verdict.AGAIN
        else:
            pattern = self._patterns[pile - self._taken_at - 1]
            verdict = Verdict.VALID if pattern is not None else Verdict.WRONG
        events.append(SlapJudged(seat, pile, verdict, pattern))
        if verdict is Verdict.VALID:
            self._take(seat, Taking.SLAP, events)
        elif verdict is Verdict.WRONG:
            self._wrong(seat, events)

    def _wrong(self, seat: int, events: list[Event]) -> None:
        """11.5, 11.7: a wrong slap burns (Slapjack: gives); an empty slapper is out."""
        self._slapped.add(seat)
        pile = self.piles[seat]
        if not pile:
            self._go_out(seat, events)
            self._check_end(events)
            return
        cards = tuple(pile.popleft() for _ in range(min(self.rules.burn, len(pile))))
        self.burned += len(cards)
        to_seat: int | None = None
        if not self.rules.paying and self.laid_by[-1] not in self.out:
            to_seat = self.laid_by[-1]
            self.piles[to_seat].extend(cards)
        else:  # face down under the pile, one after the other
            self.table.extendleft(cards)
        events.append(CardsBurned(seat, cards, to_seat))
        if self.window is None and seat == self.to_move and not pile:
            if self.owed:  # 11.3: the payer ran out
                self._open(self._court(), Taking.UNPAID)
            else:
                self._pass_turn(seat)
            if self.window is not None:
                events.append(WindowOpened(self.window, self._window_why))
        self._sweep(events)

    def _pass_turn(self, seat: int) -> None:
        """No payment due after ``seat``: the next holder moves; nobody holds a card: 11.7."""
        nxt = self._next_holder(seat, including=True)
        if nxt is None:
            taker = self.court_seat if self.court_seat is not None else self.laid_by[-1]
            self._open(taker, Taking.NO_CARDS)
        else:
            self.to_move = nxt

    def _open(self, taker: int, why: Taking) -> None:
        self.window, self._window_why = taker, why
        self.to_move, self.owed, self.owed_for = taker, 0, None

    def _take(self, seat: int, why: Taking, events: list[Event]) -> None:
        """``seat`` takes the pile, bottom card first (11.3, 11.5, 11.7)."""
        cards = tuple(self.table)
        self.piles[seat].extend(cards)
        self._clear_table()
        trick = None
        if why.is_trick:
            self.tricks += 1
            trick = self.tricks
        elif why is Taking.SLAP:
            self.slaps += 1
        self.to_move, self.owed, self.owed_for, self.court_seat = seat, 0, None, None
        events.append(PileTaken(seat, cards, why, trick))
        for other in range(self.players):  # 11.7: empty when someone else took the pile
            if other != seat and other not in self.out and not self.piles[other]:
                self._go_out(other, events)
        self._check_end(events)

    def _clear_table(self) -> None:
        self.table.clear()
        self.face_up.clear()
        self.laid_by.clear()
        self._patterns.clear()
        self._slapped.clear()
        self._taken_at = self.cards_played
        self.window = None

    def _sweep(self, events: list[Event]) -> None:
        """Slapping in off: an empty player is out at once (but see the module docstring)."""
        if not self.rules.slap_in:
            for seat in range(self.players):
                if (seat not in self.out and not self.piles[seat]
                        and seat not in (self.court_seat, self.window)):
                    self._go_out(seat, events)
        self._check_end(events)

    def _go_out(self, seat: int, events: list[Event]) -> None:
        self.out[seat] = self.cards_played
        events.append(SeatOut(seat, self.cards_played))

    def _check_end(self, events: list[Event]) -> None:
        """11.7: the last player not out wins, with any cards left on the table."""
        if self.over:
            return
        left = [s for s in range(self.players) if s not in self.out]
        if len(left) != 1:
            return
        winner = left[0]
        if self.table:
            cards = tuple(self.table)
            self.piles[winner].extend(cards)
            self._clear_table()
            events.append(PileTaken(winner, cards, Taking.END, None))
        self._finish(Outcome.WIN, Reason.ALL_CARDS, winner, events)

    def _finish(self, outcome: Outcome, reason: Reason, winner: int | None,
                events: list[Event]) -> None:
        self.outcome, self.reason, self.winner = outcome, reason, winner
        self.window = None
        events.append(GameEnded(outcome, reason, winner))

    def _court(self) -> int:
        assert self.court_seat is not None  # a payment is always for a court card
        return self.court_seat

    def _next_holder(self, seat: int, *, including: bool) -> int | None:
        """The next seat after ``seat`` round the table that holds cards (11.1);
        ``seat`` itself last when ``including``."""
        for k in range(1, self.players + int(including)):
            other = (seat + k) % self.players
            if self.piles[other]:
                return other
        return None

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < self.players:
            raise SlapError(f"there is no seat {seat}: seats are 0 to {self.players - 1}")
