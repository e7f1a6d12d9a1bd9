"""What goes into a slap game and what comes out (RULES.md section 11).

A game moves only by **moves** (inputs): :class:`PutDown` (the seat to move
puts down its top card, 11.2-11.3), :class:`Slap` (a seat slaps, naming the
pile it reacts to: the number of cards put down when it slapped, 11.5-11.6)
and :class:`Close` (the table closes the slap window of a pile waiting to be
taken, 11.3, 11.6). :meth:`~cardwar.engine.slap.SlapGame.push` takes one
and returns a :class:`Step`: the move, the **events** it caused, in order,
each fully formed, and the state after it. A game is a pure function of its
deal, its rules and its moves (:func:`move_json` / :func:`move_from_json`
write and read them).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..cards import Card
from ..ending import Outcome, Reason
from .rules import Pattern


class SlapError(ValueError):
    """A move the game cannot take: a seat that does not exist, a slap naming a
    card not yet put down, a card put down out of turn or while a pile waits."""


class WindowOpenError(SlapError):
    """A card was to be put down while a pile waits for its slap window (11.3, 11.6):
    :class:`Close` it first."""


@dataclass(frozen=True, slots=True)
class PutDown:
    """The seat to move puts the top card of its pile face up on the pile (11.2).

    Attributes:
        seat: the seat that asks, checked against the seat to move; None: whoever is.
    """

    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Slap:
    """``seat`` slaps the pile (11.5).

    Attributes:
        seat: the table seat that slapped.
        pile: the pile it reacts to: the number of cards put down when it
            slapped (0 before the first card), as the online page sends it (11.6).
    """

    seat: int
    pile: int


@dataclass(frozen=True, slots=True)
class Close:
    """The slap window is over: a pile waiting to be taken goes to its taker (11.3,
    11.6, 11.7). Nothing happens when no pile waits."""


#: Every kind of move.
Move = PutDown | Slap | Close


class Verdict(StrEnum):
    """What a slap was judged to be (RULES.md 11.5-11.7)."""

    #: The pile named was slappable and is still on the table: the slapper takes it.
    VALID = "valid"
    #: The pile named was not slappable: a card burned or given (an empty slapper is out).
    WRONG = "wrong"
    #: The pile named has been taken since (or the game is over): nothing happens.
    TOO_LATE = "too_late"
    #: A slap before the first card: nothing happens.
    EMPTY_PILE = "empty_pile"
    #: The seat already slapped since the last card or taking: nothing happens.
    AGAIN = "again"
    #: The seat is out of the game: nothing happens.
    OUT = "out"
    #: The seat holds no cards and the table does not allow slapping in: nothing happens.
    NO_SLAP_IN = "no_slap_in"

    @property
    def counts(self) -> bool:
        """True for a slap that changed the game (valid or wrong)."""
        return self in (Verdict.VALID, Verdict.WRONG)


class Taking(StrEnum):
    """Why the pile went to a player (RULES.md 11.3, 11.5, 11.7)."""

    #: A payment completed with plain cards: the player of the last court card (11.3).
    TRICK = "trick"
    #: The payer ran out, or nobody else held a card to pay: the court card's player (11.3).
    UNPAID = "unpaid"
    #: Nobody holds a card any more: the last court card's player, else the last card's (11.7).
    NO_CARDS = "no_cards"
    #: A valid slap (11.5).
    SLAP = "slap"
    #: The winner takes the cards left on the table (11.7).
    END = "end"

    @property
    def is_trick(self) -> bool:
        """True for a taking that ``tricks`` counts (11.3 and 11.7's nobody-holds rule)."""
        return self in (Taking.TRICK, Taking.UNPAID, Taking.NO_CARDS)


@dataclass(frozen=True, slots=True)
class CardDown:
    """A card put down (11.2-11.3).

    Attributes:
        number: the card's number in the game, from 1 (the pile a slap on it names).
        seat: who put it down.
        card: the card.
        paid_for: the court card it was put down to pay for, else None.
        pattern: the pattern the pile shows now, if it is slappable.
        owed: cards ``to_move`` owes now (0: no payment is due).
        owed_for: the court card being paid for, with ``owed``.
        to_move: the seat to put down the next card (after a window: its taker).
    """

    number: int
    seat: int
    card: Card
    paid_for: Card | None
    pattern: Pattern | None
    owed: int
    owed_for: Card | None
    to_move: int


@dataclass(frozen=True, slots=True)
class WindowOpened:
    """The pile waits for the slap window, then goes to ``taker`` (11.3, 11.6, 11.7).

    The table sends :class:`Close` when the window is over; a valid slap first
    takes the pile instead.
    """

    taker: int
    why: Taking


@dataclass(frozen=True, slots=True)
class SlapJudged:
    """A slap and its verdict (11.5-11.6).

    Attributes:
        seat: who slapped.
        pile: the pile named (cards put down when the seat slapped).
        verdict: what it was judged to be.
        pattern: the pattern of the pile named, for a valid slap.
    """

    seat: int
    pile: int
    verdict: Verdict
    pattern: Pattern | None = None


@dataclass(frozen=True, slots=True)
class CardsBurned:
    """A wrong slap's cost (11.5).

    Attributes:
        seat: the slapper.
        cards: the cards it lost, from the top of its pile (fewer than the
            table's burn when it had fewer).
        to_seat: Egyptian Ratscrew: None (face down under the pile); Slapjack:
            the seat that put down the top card, under whose pile they went.
    """

    seat: int
    cards: tuple[Card, ...]
    to_seat: int | None


@dataclass(frozen=True, slots=True)
class PileTaken:
    """A player took the pile (11.3, 11.5, 11.7).

    Attributes:
        seat: the taker.
        cards: the whole pile, burned cards included, bottom card first: the
            order they went under the taker's pile.
        why: why it went to them.
        trick: the trick's number for a taking ``tricks`` counts, else None.
    """

    seat: int
    cards: tuple[Card, ...]
    why: Taking
    trick: int | None


@dataclass(frozen=True, slots=True)
class SeatOut:
    """``seat`` is out of the game for good (11.7), after ``cards_played`` cards."""

    seat: int
    cards_played: int


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game is over (11.7): won by the last player not out, or a draw at the card limit."""

    outcome: Outcome
    reason: Reason
    winner: int | None


#: Every kind of event, in the order a step lists them.
Event = CardDown | WindowOpened | SlapJudged | CardsBurned | PileTaken | SeatOut | GameEnded


@dataclass(frozen=True, slots=True)
class Step:
    """One move and everything it did (the result of :meth:`SlapGame.push`).

    Attributes:
        number: the move's number in the game, from 1.
        move: the move.
        events: what happened, in order (a :class:`Close` with nothing to
            take, or a slap that counts for nothing but its verdict, has few).
        cards_played: cards put down so far.
        to_move: the seat to put down the next card (None once the game is over).
        owed: cards ``to_move`` owes (0: none).
        window: the seat that takes the pile when the window closes, or None.
        counts: cards in each seat's pile.
        pile: cards on the table (burned ones included).
        outcome: set once the game is over.
    """

    number: int
    move: Move
    events: tuple[Event, ...]
    cards_played: int
    to_move: int | None
    owed: int
    window: int | None
    counts: tuple[int, ...]
    pile: int
    outcome: Outcome | None

    @property
    def verdict(self) -> Verdict | None:
        """The slap's verdict when the move was a :class:`Slap`, else None."""
        for event in self.events:
            if isinstance(event, SlapJudged):
                return event.verdict
        return None


def move_json(move: Move) -> list[Any]:
    """A move as JSON: ``["put"]`` or ``["put", seat]``, ``["slap", seat, pile]``, ``["close"]``."""
    if isinstance(move, PutDown):
        return ["put"] if move.seat is None else ["put", move.seat]
    if isinstance(move, Slap):
        return ["slap", move.seat, move.pile]
    return ["close"]


def move_from_json(data: Any) -> Move:
    """The inverse of :func:`move_json`.

    Raises:
        SlapError: not a move written by :func:`move_json`.
    """
    if isinstance(data, list) and data and all(type(x) is int for x in data[1:]):
        kind, args = data[0], data[1:]
        if kind == "put" and len(args) <= 1:
            return PutDown(*args)
        if kind == "slap" and len(args) == 2:
            return Slap(*args)
        if kind == "close" and not args:
            return Close()
    raise SlapError(f"not a move: {data!r}")
