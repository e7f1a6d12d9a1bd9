"""A plain, first-go implementation of RULES.md sections 4-7, for comparison.

Cards are ints ``suit * 13 + rank`` as in :mod:`cardwar.engine.cards`; each
pile is a ``collections.deque`` and every battle is one trip round a loop.
Any number of players; Peace (lowest wins) or War (highest wins).
It is not tuned, but not made slow on purpose either: it is what a competent
developer writes first, and :mod:`bench.engine` checks that it agrees with
:func:`cardwar.engine.play_fast` on every deal.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence


def play_baseline(
    piles: Sequence[Sequence[int]],
    *,
    low_wins: bool = True,
    face_down: int = 5,
    battle_limit: int | None = 1000,
    cycle_draw: bool = False,
) -> tuple[str, str, int | None, int, tuple[int, ...]]:
    """Play a whole game; return (outcome, reason, winner, battles, final counts)."""
    hands = [deque(p) for p in piles]
    players = len(hands)
    out: set[int] = set()
    battles = 0
    seen: set[tuple[tuple[int, ...], ...]] = set()
    if cycle_draw:
        seen.add(tuple(tuple(h) for h in hands))

    def best_seats(up: dict[int, int]) -> list[int]:
        ranks = {s: c % 13 for s, c in up.items()}
        best = min(ranks.values()) if low_wins else max(ranks.values())
        return [s for s in sorted(ranks) if ranks[s] == best]

    while True:
        active = [s for s in range(players) if s not in out]
        battles += 1
        table: list[int] = []
        up: dict[int, int] = {}
        for s in active:
            card = hands[s].popleft()
            up[s] = card
            table.append(card)
        leaders = best_seats(up)
        while len(leaders) > 1:
            if all(len(hands[s]) == 0 for s in active):
                counts = tuple(len(h) for h in hands)
                return ("draw", "unresolvable", None, battles, counts)
            for s in active:
                hand = hands[s]
                if not hand:
                    continue  # the last face-up card stands
                lay = min(len(hand) - 1, face_down)
                for _ in range(lay):
                    table.append(hand.popleft())
                card = hand.popleft()
                up[s] = card
                table.append(card)
            leaders = best_seats(up)
        hands[leaders[0]].extend(table)
        for s in active:
            if not hands[s]:
                out.add(s)
        still = [s for s in range(players) if s not in out]
        if len(still) == 1:
            return ("win", "all_cards", still[0], battles, tuple(len(h) for h in hands))
        if battle_limit is not None and battles >= battle_limit:
            return ("draw", "battle_limit", None, battles, tuple(len(h) for h in hands))
        if cycle_draw:
            position = tuple(tuple(h) for h in hands)
            if position in seen:
                return ("draw", "cycle", None, battles, tuple(len(h) for h in hands))
            seen.add(position)
