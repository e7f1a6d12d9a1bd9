"""Beggar-my-neighbour, whole games without records (RULES.md section 10).

Only the value of a card matters (0 plain, 1-4 for J Q K A), so a game is
played on piles of values: :func:`play_beggar_fast` for cards,
:func:`play_values` for values (the records' notation). Results are identical
to stepping a :class:`~cardwar.engine.beggar.game.BeggarGame` (a property test
holds the two together). :func:`simulate_beggar` plays many seeded deals for
``cardwar simulate --variant beggar``.
"""

from __future__ import annotations

import statistics
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card
from ..ending import Outcome, Reason
from ..shuffle import shuffled_deck
from .game import NAME, PLAYERS, VALUE_OF, BeggarGame, Cycle, check_piles, position_key


@dataclass(frozen=True, slots=True)
class BeggarSummary:
    """How a game of Beggar-my-neighbour ended (RULES.md 10.6-10.8).

    Attributes:
        outcome: win or draw.
        reason: ``all_cards`` (won) or ``cycle`` (a draw: the game repeats).
        winner: the winning seat, or None for a draw.
        tricks: every taking of the pile, the winner's final one included (10.7).
        cards_played: every card put down (10.7).
        final_counts: cards in each seat's pile at the end (the winner holds
            them all; in a cycle, the piles after the repeating trick).
        cycle: where the game repeats, for ``cycle``; else None.
    """

    outcome: Outcome
    reason: Reason
    winner: int | None
    tricks: int
    cards_played: int
    final_counts: tuple[int, ...]
    cycle: Cycle | None = None


def summarize_beggar(game: BeggarGame) -> BeggarSummary:
    """Return the :class:`BeggarSummary` of a finished ``game``.

    Raises:
        ValueError: the game is not over.
    """
    if game.outcome is None or game.reason is None:
        raise ValueError("the game is not over")
    return BeggarSummary(
        outcome=game.outcome,
        reason=game.reason,
        winner=game.winner,
        tricks=game.tricks,
        cards_played=game.cards_played,
        final_counts=game.counts(),
        cycle=game.cycle,
    )


def play_values(first: Sequence[int], second: Sequence[int]) -> BeggarSummary:
    """Play a whole game on piles of values and return its :class:`BeggarSummary`.

    Args:
        first, second: seat 0's and seat 1's piles, top first, as values
            (0 plain, 1 J, 2 Q, 3 K, 4 A); both non-empty, any sizes.

    Raises:
        ValueError: an empty pile or a value outside 0-4.
    """
    if not first or not second:
        raise ValueError("every seat needs at least one card")
    if not set(first).union(second) <= {0, 1, 2, 3, 4}:
        raise ValueError("card values are 0 (plain) to 4 (ace)")
    piles = (deque(first), deque(second))
    seen = {position_key(bytes(first), bytes(second), 0): (0, 0)}
    table: list[int] = []
    cards = tricks = 0
    seat = owed = court = 0  # seat to move, cards it owes, who put down the court card
    while True:
        pile = piles[seat]
        if not pile:  # 10.6: nothing to put down: the other wins, one more trick
            tricks += 1
            winner = 1 - seat
            counts = [0, 0]
            counts[winner] = len(piles[0]) + len(piles[1]) + len(table)
            return BeggarSummary(Outcome.WIN, Reason.ALL_CARDS, winner, tricks, cards,
                                 tuple(counts))
        value = pile.popleft()
        table.append(value)
        cards += 1
        if value:
            owed = value
            court = seat
            seat = 1 - seat
        elif owed:
            owed -= 1
            if not owed:  # a trick
                piles[court].extend(table)
                table.clear()
                tricks += 1
                if not pile:  # the payer has nothing left
                    return BeggarSummary(Outcome.WIN, Reason.ALL_CARDS, court, tricks, cards,
                                         (len(piles[0]), len(piles[1])))
                seat = court
                key = position_key(bytes(piles[0]), bytes(piles[1]), seat)
                first_seen = seen.get(key)
                if first_seen is not None:
                    at_tricks, at_cards = first_seen
                    cycle = Cycle(at_tricks, at_cards, tricks - at_tricks, cards - at_cards)
                    return BeggarSummary(Outcome.DRAW, Reason.CYCLE, None, tricks, cards,
                                         (len(piles[0]), len(piles[1])), cycle)
                seen[key] = (tricks, cards)
        else:
            seat = 1 - seat


def play_beggar_fast(piles: Sequence[Sequence[Card]]) -> BeggarSummary:
    """Play a whole game from two piles of cards (top first) and return its summary.

    Raises:
        OptionError: not exactly two piles.
        ValueError: a card appears twice, or a pile is empty.
    """
    check_piles(piles)
    return play_values([VALUE_OF[c] for c in piles[0]], [VALUE_OF[c] for c in piles[1]])


def simulate_beggar(
    games: int, seed: str = "sim", progress: Callable[[int], None] | None = None
) -> dict[str, Any]:
    """Play ``games`` deals shuffled with seeds ``f"{seed}/0"``, ``f"{seed}/1"``, ...

    Each deal is the seed's pack dealt to two players (RULES.md 3 and 9).

    Args:
        progress: called with 1 after each game (for a progress bar).

    Returns:
        ``{"variant", "players", "games", "seed", "mean_cards", "median_cards",
        "min_cards", "max_cards", "mean_tricks", "median_tricks", "min_tricks",
        "max_tricks", "reasons" ({"all_cards": n, "cycle": n}), "cycles",
        "cycle_share" (0..1), "wins_by_seat", "longest" ({"seed", "cards",
        "tricks"}: the longest game)}``. Cards and tricks count as RULES.md
        10.7 says; a cycle counts up to the trick that repeats.

    Raises:
        ValueError: ``games`` is below 1.
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    cards: list[int] = []
    tricks: list[int] = []
    wins = [0] * PLAYERS
    cycles = 0
    longest = 0
    for i in range(games):
        values = [VALUE_OF[c] for c in shuffled_deck(f"{seed}/{i}")]
        s = play_values(values[0::2], values[1::2])
        cards.append(s.cards_played)
        tricks.append(s.tricks)
        if s.winner is None:
            cycles += 1
        else:
            wins[s.winner] += 1
        if s.cards_played > cards[longest]:
            longest = i
        if progress is not None:
            progress(1)
    return {
        "variant": NAME,
        "players": PLAYERS,
        "games": games,
        "seed": seed,
        "mean_cards": round(statistics.fmean(cards), 2),
        "median_cards": statistics.median(cards),
        "min_cards": min(cards),
        "max_cards": max(cards),
        "mean_tricks": round(statistics.fmean(tricks), 2),
        "median_tricks": statistics.median(tricks),
        "min_tricks": min(tricks),
        "max_tricks": max(tricks),
        "reasons": {Reason.ALL_CARDS.value: games - cycles, Reason.CYCLE.value: cycles},
        "cycles": cycles,
        "cycle_share": round(cycles / games, 6),
        "wins_by_seat": wins,
        "longest": {"seed": f"{seed}/{longest}", "cards": cards[longest],
                    "tricks": tricks[longest]},
    }
