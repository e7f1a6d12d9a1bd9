"""Beggar-my-neighbour, one card at a time (RULES.md section 10).

Two players take turns to put the top card of their pile on a common pile;
a court card (J Q K A) makes the other player pay 1-4 cards, and a payment
made with plain cards only gives the whole pile to the player of the last
court card (a *trick*). Nobody ever chooses anything.

:class:`BeggarGame` holds both piles and the pile on the table and moves by
:meth:`~BeggarGame.put_down` (one card, a :class:`CardResult`: who put down
what, who must put down the next card and how much they owe, the trick if
one was taken) or :meth:`~BeggarGame.play_trick` (cards until the pile is
taken, a :class:`TrickResult`). The whole-game path without records is
:func:`cardwar.engine.beggar.fast.play_beggar_fast`; a property test holds
the two together.

Its row in :data:`cardwar.engine.variants.VARIANTS` is
:data:`~cardwar.engine.variants.BEGGAR` (``play="turns"``); :data:`NAME` and
:data:`PLAYERS` are that row's name and player count.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import PACK_SIZE, RANK_OF, Card
from ..ending import GameOverError, Outcome, Reason
from ..variants import BEGGAR

#: The variant name (``cardwar play --variant beggar``).
NAME = BEGGAR.name
#: The only player count (RULES.md 10).
PLAYERS = BEGGAR.default_players
#: The records' notation by value: ``-`` plain, ``J Q K A`` court (RULES.md 10.1).
SYMBOLS = "-JQKA"
#: ``VALUE_OF[card]``: the cards owed for it: 0 (plain), 1 (J), 2 (Q), 3 (K), 4 (A) (10.4).
VALUE_OF: tuple[int, ...] = tuple(max(0, RANK_OF[c] - 8) for c in range(PACK_SIZE))
# bytes(pile).translate(_TO_VALUE) maps card ints to values in C.
_TO_VALUE = bytes(VALUE_OF) + bytes(256 - PACK_SIZE)
# Separates the two piles in a position key (values are 0-4).
_SEP = b"\x09"


def check_players(players: int) -> None:
    """Refuse any player count but two.

    Raises:
        OptionError: ``players`` is not 2.
    """
    BEGGAR.check(players)


def check_piles(piles: Sequence[Sequence[Card]]) -> None:
    """Validate a deal for Beggar-my-neighbour (any sizes, two non-empty piles).

    Raises:
        OptionError: not exactly two piles.
        ValueError: a card appears twice, or a pile is empty.
    """
    check_players(len(piles))
    if len(set().union(*piles)) != sum(len(p) for p in piles):
        raise ValueError("a card appears twice")
    if not all(piles):
        raise ValueError("every seat needs at least one card")


def notation(cards: Sequence[Card]) -> str:
    """Return ``cards`` in the records' notation, e.g. ``"-J--A"`` (RULES.md 10.1)."""
    return "".join(SYMBOLS[VALUE_OF[c]] for c in cards)


def position_key(first: bytes, second: bytes, starter: int) -> bytes:
    """The position compared for endless games (RULES.md 10.8).

    ``first`` and ``second`` are the piles as values (0 plain, 1-4 court),
    top first; ``starter`` is the seat to put down the next card.
    """
    return first + _SEP + second + bytes((starter,))


@dataclass(frozen=True, slots=True)
class Cycle:
    """Where an endless game repeats itself (RULES.md 10.8).

    The position after trick ``start_trick + length_tricks`` is the one after
    trick ``start_trick`` (0: the deal, seat 0 to start); from there the game
    goes round the same ``length_tricks`` tricks for ever.

    Attributes:
        start_trick: tricks taken when the repeated position first stood.
        start_cards: cards put down by then.
        length_tricks: tricks in one round of the cycle.
        length_cards: cards put down in one round of the cycle.
    """

    start_trick: int
    start_cards: int
    length_tricks: int
    length_cards: int


@dataclass(frozen=True, slots=True)
class CardResult:
    """What putting down one card did (RULES.md 10.3-10.8).

    Attributes:
        number: the card's number in the game, from 1 (``cards_played`` so far).
        seat: the seat that put it down.
        card: the card.
        paying: True when it was put down as a payment for a court card.
        owed: cards ``to_move`` must pay now (0: no payment is due, ``to_move``
            plays in turn or starts after a trick).
        owed_for: the court card being paid for, with ``owed``.
        to_move: the seat due to put down the next card. When the game ended
            because that seat had no card to put down, it is the loser (and
            ``owed``/``owed_for`` say what it could not pay).
        pile: cards on the table after this card and any taking.
        taken_by: the seat that took the pile after this card (a trick, or the
            winner's final taking), else None.
        taken: how many cards were taken (0 when none).
        tricks: tricks taken so far, this one included.
        counts: cards in each seat's pile afterwards.
        outcome: set when the game ended with this card.
        reason: why it ended (``all_cards`` or ``cycle``), with ``outcome``.
        game_winner: the seat that won, if it was won.
        cycle: where the game repeats, when it ended by ``cycle``.
    """

    number: int
    seat: int
    card: Card
    paying: bool
    owed: int
    owed_for: Card | None
    to_move: int
    pile: int
    taken_by: int | None
    taken: int
    tricks: int
    counts: tuple[int, ...]
    outcome: Outcome | None = None
    reason: Reason | None = None
    game_winner: int | None = None
    cycle: Cycle | None = None


@dataclass(frozen=True, slots=True)
class TrickResult:
    """One taking of the pile, with every card put down for it (RULES.md 10.5-10.7).

    The winner's final taking of the cards left on the table is a trick too.

    Attributes:
        number: the trick's number, from 1.
        starter: the seat that put down its first card.
        cards: the cards in the order put down (the order they go under).
        seats: for each card, the seat that put it down.
        taker: the seat that took them.
        cards_played: cards put down in the game so far.
        counts: cards in each seat's pile afterwards.
        outcome, reason, game_winner, cycle: as in :class:`CardResult`.
    """

    number: int
    starter: int
    cards: tuple[Card, ...]
    seats: tuple[int, ...]
    taker: int
    cards_played: int
    counts: tuple[int, ...]
    outcome: Outcome | None = None
    reason: Reason | None = None
    game_winner: int | None = None
    cycle: Cycle | None = None


class BeggarGame:
    """A game of Beggar-my-neighbour in progress (RULES.md section 10).

    Attributes (read them, don't change them): ``piles`` (per seat, top card
    first), ``table`` (the common pile, in the order put down), ``to_move``,
    ``owed``, ``owed_for``, ``court_seat`` (who put down the last court card
    on the table), ``cards_played``, ``tricks``, and once over ``outcome``,
    ``reason``, ``winner`` and ``cycle``.

    Args:
        piles: the two piles after the deal, top card first; any sizes.

    Raises:
        OptionError: not exactly two piles.
        ValueError: a card appears twice, or a pile is empty.
    """

    def __init__(self, piles: Sequence[Sequence[Card]]) -> None:
        check_piles(piles)
        self.piles: list[deque[Card]] = [deque(p) for p in piles]
        self.cards_in_play = sum(len(p) for p in piles)
        self.table: list[Card] = []
        self._laid_by: list[int] = []
        self.to_move = 0
        self.owed = 0
        self.owed_for: Card | None = None
        self.court_seat: int | None = None
        self.cards_played = 0
        self.tricks = 0
        self.outcome: Outcome | None = None
        self.reason: Reason | None = None
        self.winner: int | None = None
        self.cycle: Cycle | None = None
        self._seen: dict[bytes, tuple[int, int]] = {self._position(): (0, 0)}
        self._taken: tuple[tuple[Card, ...], tuple[int, ...]] = ((), ())

    def copy(self) -> BeggarGame:
        """An independent copy of this game as it stands (piles, table, seen positions).

        Playing on the copy leaves this game as it is.
        """
        other = BeggarGame.__new__(BeggarGame)
        other.__dict__.update(self.__dict__)
        other.piles = [deque(p) for p in self.piles]
        other.table = list(self.table)
        other._laid_by = list(self._laid_by)
        other._seen = dict(self._seen)
        return other

    @property
    def over(self) -> bool:
        """True once the game has an outcome."""
        return self.outcome is not None

    @property
    def last_taken(self) -> tuple[Card, ...]:
        """The cards of the last taking of the pile, in the order put down (none yet: empty)."""
        return self._taken[0]

    def counts(self) -> tuple[int, ...]:
        """Cards in each seat's pile."""
        return tuple(len(p) for p in self.piles)

    def notation(self) -> tuple[str, str]:
        """Both piles in the records' notation, top first (RULES.md 10.1)."""
        return notation(self.piles[0]), notation(self.piles[1])

    def _position(self) -> bytes:
        first, second = (bytes(p).translate(_TO_VALUE) for p in self.piles)
        return position_key(first, second, self.to_move)

    def _take(self, seat: int) -> int:
        """``seat`` takes the table under its pile (10.5); return how many cards."""
        self.piles[seat].extend(self.table)
        self._taken = (tuple(self.table), tuple(self._laid_by))
        self.table = []
        self._laid_by = []
        self.tricks += 1
        return len(self._taken[0])

    def _end(self, outcome: Outcome, reason: Reason, winner: int | None = None) -> None:
        self.outcome = outcome
        self.reason = reason
        self.winner = winner
        # the positions seen were for the cycle check (RULES.md 10.8; the cycle
        # found is in ``self.cycle``): nothing is played after the end, so a
        # finished game keeps its state, not its history
        self._seen = {}

    def put_down(self) -> CardResult:
        """The seat to move puts down its top card; pay, take and end as RULES.md 10 says.

        Returns:
            The :class:`CardResult`; ``outcome`` is set when the game ended.

        Raises:
            GameOverError: the game has already ended.
        """
        if self.outcome is not None:
            raise GameOverError("the game is over")
        seat = self.to_move
        card = self.piles[seat].popleft()  # never empty here: see the end of this method
        self.table.append(card)
        self._laid_by.append(seat)
        self.cards_played += 1
        paying = self.owed > 0
        value = VALUE_OF[card]
        taken_by: int | None = None
        taken = 0
        if value:  # 10.4: the other player must pay for it
            self.owed, self.owed_for, self.court_seat = value, card, seat
            self.to_move = 1 - seat
        elif paying:
            self.owed -= 1
            if not self.owed:  # 10.5: paid with plain cards only: a trick
                taker = self.court_seat
                assert taker is not None  # a payment is always for a court card
                taken_by, taken = taker, self._take(taker)
                self.owed_for = self.court_seat = None
                self.to_move = taker
                if not self.piles[seat]:
                    self._end(Outcome.WIN, Reason.ALL_CARDS, taker)  # 10.6
                else:
                    self._check_cycle()
        else:
            self.to_move = 1 - seat
        if not self.over and not self.piles[self.to_move]:
            # 10.6: the seat to move has no card to put down: the other wins
            # and takes the table, one more trick (10.7).
            winner = 1 - self.to_move
            taken_by, taken = winner, self._take(winner)
            self._end(Outcome.WIN, Reason.ALL_CARDS, winner)
        return CardResult(
            number=self.cards_played,
            seat=seat,
            card=card,
            paying=paying,
            owed=self.owed,
            owed_for=self.owed_for,
            to_move=self.to_move,
            pile=len(self.table),
            taken_by=taken_by,
            taken=taken,
            tricks=self.tricks,
            counts=self.counts(),
            outcome=self.outcome,
            reason=self.reason,
            game_winner=self.winner,
            cycle=self.cycle,
        )

    def _check_cycle(self) -> None:
        """10.8: after a trick, a position met before is an endless game."""
        position = self._position()
        first = self._seen.get(position)
        if first is None:
            self._seen[position] = (self.tricks, self.cards_played)
            return
        tricks, cards = first
        self.cycle = Cycle(tricks, cards, self.tricks - tricks, self.cards_played - cards)
        self._end(Outcome.DRAW, Reason.CYCLE)

    def play_trick(self) -> TrickResult:
        """Put down cards until the pile is taken (a trick) and return the trick.

        Cards already on the table (from :meth:`put_down`) belong to it.

        Raises:
            GameOverError: the game has already ended.
        """
        if self.outcome is not None:
            raise GameOverError("the game is over")
        starter = self._laid_by[0] if self._laid_by else self.to_move
        for _ in range(self.cards_in_play + 1):  # every card on the table ends a trick
            result = self.put_down()
            if result.taken_by is not None:
                break
        else:  # pragma: no cover - the piles run out long before
            raise AssertionError("a trick longer than the pack")
        cards, seats = self._taken
        return TrickResult(
            number=self.tricks,
            starter=starter,
            cards=cards,
            seats=seats,
            taker=result.taken_by,
            cards_played=self.cards_played,
            counts=result.counts,
            outcome=self.outcome,
            reason=self.reason,
            game_winner=self.winner,
            cycle=self.cycle,
        )

    def play_to_end(self) -> list[TrickResult]:
        """Play tricks until the game ends; return every trick in order.

        Every game ends: positions are finite and a repeat is a draw (10.8).
        """
        results = []
        while self.outcome is None:
            results.append(self.play_trick())
        return results
