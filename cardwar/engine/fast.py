"""Whole games without per-battle records, as fast as pure Python allows.

Used by simulations and by ``cardwar play`` without ``--log``. Results are
identical to stepping a :class:`~cardwar.engine.game.Game` (a property test
holds the two together).

The two-player path plays a *round* of battles at once: while neither pile
has reached the cards it won during the round, battle ``i`` simply pits
``a[i]`` against ``b[i]``, so a round is a handful of C-level ``map`` and
``compress`` calls instead of a Python loop per battle. Ties fall back to
the exact rule-by-rule code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain, compress
from operator import eq, gt, lt, not_

from .cards import RANK_OF, Card
from .game import Game, Outcome, Reason
from .variants import Variant


@dataclass(frozen=True, slots=True)
class Summary:
    """How a game ended (RULES.md section 7).

    Attributes:
        outcome: win or draw.
        reason: all_cards, battle_limit, unresolvable or cycle.
        winner: the winning seat, or None for a draw.
        battles: battles played.
        final_counts: cards in each seat's pile at the end.
        eliminated: seat -> the battle in which it went out.
    """

    outcome: Outcome
    reason: Reason
    winner: int | None
    battles: int
    final_counts: tuple[int, ...]
    eliminated: dict[int, int]


def summarize(game: Game) -> Summary:
    """Return the :class:`Summary` of a finished ``game``.

    Raises:
        ValueError: the game is not over.
    """
    if game.outcome is None or game.reason is None:
        raise ValueError("the game is not over")
    return Summary(
        outcome=game.outcome,
        reason=game.reason,
        winner=game.winner,
        battles=game.battles,
        final_counts=game.counts(),
        eliminated=dict(game.eliminated),
    )


def play_fast(
    variant: Variant, piles: Sequence[Sequence[Card]], face_down: int | None = None
) -> Summary:
    """Play a whole game and return its :class:`Summary`.

    Two-player games of a variant without the cycle rule take the round
    path; every other game steps a :class:`Game`.

    Raises:
        OptionError: an option the variant does not allow.
        ValueError: a duplicate card or an empty pile.
    """
    game = Game(variant, piles, face_down)
    if len(piles) != 2 or variant.cycle_draw:
        game.play_to_end()
        return summarize(game)
    return _two(variant, list(piles[0]), list(piles[1]), game.face_down)


def _two(variant: Variant, a: list[Card], b: list[Card], d: int) -> Summary:
    rank = RANK_OF.__getitem__
    beats = lt if variant.low_wins else gt
    limit = variant.battle_limit if variant.battle_limit is not None else 1 << 62
    battles = 0
    while True:
        m = min(len(a), len(b), limit - battles)
        ra = list(map(rank, a[:m]))
        rb = list(map(rank, b[:m]))
        try:
            k = list(map(eq, ra, rb)).index(True)
        except ValueError:
            k = m
        if k:
            a_wins = list(map(beats, ra[:k], rb[:k]))
            won_a = list(chain.from_iterable(compress(zip(a, b), a_wins)))
            won_b = list(chain.from_iterable(compress(zip(a, b), map(not_, a_wins))))
            a = a[k:] + won_a
            b = b[k:] + won_b
            battles += k
            if not a or not b:
                return _won(a, b, battles)
            if battles >= limit:
                return _drawn(Reason.BATTLE_LIMIT, a, b, battles)
        if k == m:
            continue
        # A tie at the top of both piles: a battle with one or more peaces.
        battles += 1
        pot = [a[0], b[0]]
        ua, ub, ia, ib = a[0], b[0], 1, 1
        while rank(ua) == rank(ub):
            left_a, left_b = len(a) - ia, len(b) - ib
            if not left_a and not left_b:
                return _drawn(Reason.UNRESOLVABLE, [], [], battles)
            if left_a:
                lay = left_a - 1 if left_a <= d else d
                pot.extend(a[ia : ia + lay + 1])
                ia += lay + 1
                ua = a[ia - 1]
            if left_b:
                lay = left_b - 1 if left_b <= d else d
                pot.extend(b[ib : ib + lay + 1])
                ib += lay + 1
                ub = b[ib - 1]
        if beats(rank(ua), rank(ub)):
            a = a[ia:] + pot
            b = b[ib:]
        else:
            a = a[ia:]
            b = b[ib:] + pot
        if not a or not b:
            return _won(a, b, battles)
        if battles >= limit:
            return _drawn(Reason.BATTLE_LIMIT, a, b, battles)


def _won(a: list[Card], b: list[Card], battles: int) -> Summary:
    loser = 0 if not a else 1
    return Summary(
        outcome=Outcome.WIN,
        reason=Reason.ALL_CARDS,
        winner=1 - loser,
        battles=battles,
        final_counts=(len(a), len(b)),
        eliminated={loser: battles},
    )


def _drawn(reason: Reason, a: list[Card], b: list[Card], battles: int) -> Summary:
    return Summary(
        outcome=Outcome.DRAW,
        reason=reason,
        winner=None,
        battles=battles,
        final_counts=(len(a), len(b)),
        eliminated={},
    )
