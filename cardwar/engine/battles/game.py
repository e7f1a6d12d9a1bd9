"""The game: one battle at a time (RULES.md sections 4-7).

:class:`Game` holds every seat's pile and plays a battle per
:meth:`Game.play_battle`, returning a :class:`BattleResult` that says
everything that was turned, laid and won, so a server can show it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import RANK_OF, Card
from ..ending import GameOverError, Outcome, Reason
from ..variants import Variant


@dataclass(frozen=True, slots=True)
class PeaceStep:
    """One peace (a war in War) inside a battle (RULES.md section 5).

    Attributes:
        face_down: per seat, the cards laid face down in the order laid
            (empty for a seat that laid none; ``None`` for a seat not in play).
            Their positions spell P-E-A-C-E in Peace.
        face_up: per seat, the deciding face-up card of this peace, either
            newly turned or standing (``None`` for a seat not in play).
        standing: seats whose face-up card stands from before (rule 5.4).
        winning_seats: seats holding the winning rank after this peace.
    """

    face_down: tuple[tuple[Card, ...] | None, ...]
    face_up: tuple[Card | None, ...]
    standing: tuple[int, ...]
    winning_seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BattleResult:
    """What one battle did (RULES.md sections 4-7).

    Attributes:
        number: the battle's number, counting from 1.
        face_up: per seat, the battle's face-up card (``None`` if not in play).
        winning_seats: seats holding the winning rank in the battle itself.
        peaces: every peace the battle led to, in order.
        winner: the seat that took the pot, or ``None`` if it was undecided.
        pot: the number of cards on the table when the battle ended.
        out: seats that went out in this battle.
        counts: cards in each seat's pile after the battle.
        outcome: set when the game ended with this battle.
        reason: why the game ended, with ``outcome``.
        game_winner: the seat that won the game, if it was won.
    """

    number: int
    face_up: tuple[Card | None, ...]
    winning_seats: tuple[int, ...]
    peaces: tuple[PeaceStep, ...]
    winner: int | None
    pot: int
    out: tuple[int, ...]
    counts: tuple[int, ...]
    outcome: Outcome | None = None
    reason: Reason | None = None
    game_winner: int | None = None

    def pot_cards(self) -> list[Card]:
        """Return the pot in laying order (RULES.md section 6)."""
        cards: list[Card] = [c for c in self.face_up if c is not None]
        for peace in self.peaces:
            for seat, down in enumerate(peace.face_down):
                if down is None:
                    continue
                cards.extend(down)
                up = peace.face_up[seat]
                if up is not None and seat not in peace.standing:
                    cards.append(up)
        return cards


def winning_seats(variant: Variant, up: dict[int, Card]) -> list[int]:
    """Return the seats whose card has the winning rank (RULES.md 4.2).

    ``up`` maps seat -> face-up card; the result is in seat order.
    """
    ranks = {s: RANK_OF[c] for s, c in up.items()}
    best = min(ranks.values()) if variant.low_wins else max(ranks.values())
    return [s for s in sorted(ranks) if ranks[s] == best]


def check_piles(
    variant: Variant, piles: Sequence[Sequence[Card]], face_down: int | None = None
) -> int:
    """Validate a deal for ``variant`` and return the face-down count to use.

    Raises:
        OptionError: ``face_down`` or the number of piles is not allowed.
        ValueError: a card appears twice, or a pile is empty.
    """
    fd = variant.check(len(piles), face_down)
    total = sum(len(p) for p in piles)
    if len(set().union(*piles)) != total:
        raise ValueError("a card appears twice")
    if not all(piles):
        raise ValueError("every seat needs at least one card")
    return fd


class Game:
    """A game in progress: piles by seat, played one battle at a time.

    Args:
        variant: the rules to play.
        piles: each seat's pile, top card first (after the deal).
        face_down: the face-down count for ties (default: the variant's).

    Raises:
        OptionError: ``face_down`` or the number of piles is not allowed.
        ValueError: a card appears twice, or a pile is empty.
    """

    def __init__(
        self,
        variant: Variant,
        piles: Sequence[Sequence[Card]],
        face_down: int | None = None,
    ) -> None:
        self.variant = variant
        self.face_down = check_piles(variant, piles, face_down)
        self.piles: list[deque[Card]] = [deque(p) for p in piles]
        self.cards_in_play = sum(len(p) for p in piles)
        self.battles = 0
        self.pot: list[Card] = []
        self.eliminated: dict[int, int] = {}
        self.outcome: Outcome | None = None
        self.reason: Reason | None = None
        self.winner: int | None = None
        self._seen: set[bytes] = set()
        if variant.cycle_draw:
            self._seen.add(self._position())

    def copy(self) -> Game:
        """An independent copy of this game as it stands (piles, pot, seen positions).

        Playing on the copy leaves this game as it is.
        """
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.piles = [deque(p) for p in self.piles]
        other.pot = list(self.pot)
        other.eliminated = dict(self.eliminated)
        other._seen = set(self._seen)
        return other

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.piles)

    @property
    def over(self) -> bool:
        """True once the game has an outcome."""
        return self.outcome is not None

    def in_play(self) -> list[int]:
        """Seats still in the game (not out), in seat order."""
        return [s for s in range(len(self.piles)) if s not in self.eliminated]

    def counts(self) -> tuple[int, ...]:
        """Cards in each seat's pile."""
        return tuple(len(p) for p in self.piles)

    def _position(self) -> bytes:
        return b"\xff".join(bytes(p) for p in self.piles)

    def play_battle(self) -> BattleResult:
        """Play one battle with every peace it leads to (RULES.md sections 4-7).

        Returns:
            The battle's :class:`BattleResult`; when the game ended with it,
            ``outcome`` and ``reason`` are set.

        Raises:
            GameOverError: the game has already ended.
        """
        if self.outcome is not None:
            raise GameOverError("the game is over")
        variant = self.variant
        piles = self.piles
        active = self.in_play()
        self.battles += 1
        pot: list[Card] = []
        up: dict[int, Card] = {}
        for s in active:
            card = piles[s].popleft()
            up[s] = card
            pot.append(card)
        battle_up = tuple(up.get(s) for s in range(len(piles)))
        first_winners = winning_seats(variant, up)
        leaders = first_winners
        peaces: list[PeaceStep] = []
        winner: int | None = None
        while True:
            if len(leaders) == 1:
                winner = leaders[0]
                break
            if not any(piles[s] for s in active):
                break  # rule 5.7: nobody can turn; the battle cannot be decided
            down: dict[int, tuple[Card, ...]] = {}
            standing: list[int] = []
            d = self.face_down
            for s in active:
                pile = piles[s]
                k = len(pile)
                if k == 0:
                    standing.append(s)  # rule 5.4: the last face-up card stands
                    down[s] = ()
                    continue
                lay = k - 1 if k <= d else d
                laid = tuple(pile.popleft() for _ in range(lay))
                card = pile.popleft()
                down[s] = laid
                up[s] = card
                pot.extend(laid)
                pot.append(card)
            leaders = winning_seats(variant, up)
            peaces.append(
                PeaceStep(
                    face_down=tuple(down.get(s) for s in range(len(piles))),
                    face_up=tuple(up.get(s) for s in range(len(piles))),
                    standing=tuple(standing),
                    winning_seats=tuple(leaders),
                )
            )
        out: list[int] = []
        if winner is not None:
            piles[winner].extend(pot)
            self.pot = []
            for s in active:
                if not piles[s]:
                    self.eliminated[s] = self.battles
                    out.append(s)
            remaining = self.in_play()
            if len(remaining) == 1:
                self._end(Outcome.WIN, Reason.ALL_CARDS, remaining[0])
            elif variant.battle_limit is not None and self.battles >= variant.battle_limit:
                self._end(Outcome.DRAW, Reason.BATTLE_LIMIT)
            elif variant.cycle_draw:
                position = self._position()
                if position in self._seen:
                    self._end(Outcome.DRAW, Reason.CYCLE)
                else:
                    self._seen.add(position)
        else:
            self.pot = pot
            self._end(Outcome.DRAW, Reason.UNRESOLVABLE)
        return BattleResult(
            number=self.battles,
            face_up=battle_up,
            winning_seats=tuple(first_winners),
            peaces=tuple(peaces),
            winner=winner,
            pot=len(pot),
            out=tuple(out),
            counts=self.counts(),
            outcome=self.outcome,
            reason=self.reason,
            game_winner=self.winner,
        )

    def _end(self, outcome: Outcome, reason: Reason, winner: int | None = None) -> None:
        self.outcome = outcome
        self.reason = reason
        self.winner = winner
        # the positions seen were for the repeat check (RULES.md 7): no battle
        # follows the end, so a finished game keeps its state, not its history
        self._seen = set()

    def play_to_end(self) -> list[BattleResult]:
        """Play battles until the game ends; return every result in order.

        A War game always ends: positions are finite and a repeat is a draw.
        """
        results = []
        while self.outcome is None:
            results.append(self.play_battle())
        return results
