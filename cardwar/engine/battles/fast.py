"""Whole games without per-battle records, as fast as pure Python allows.

Used by simulations and by ``cardwar play`` without ``--log``. Results are
identical to stepping a :class:`~cardwar.engine.battles.game.Game` (a property test
holds the two together).

The two-player path plays a *round* of battles at once: while neither pile
has reached the cards it won during the round, battle ``i`` simply pits
``a[i]`` against ``b[i]``. Piles are ``bytes`` of ranks (only ranks decide a
battle, and a :class:`Summary` names no card), so a round is a handful of
big-integer and ``bytes`` operations in C instead of a Python loop per
battle. Ties fall back to the exact rule-by-rule code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import gt, lt

from ..cards import PACK_SIZE, RANK_OF, Card
from ..ending import Outcome, Reason
from ..variants import Variant
from .game import Game, check_piles


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
    if len(piles) != 2 or variant.cycle_draw:
        game = Game(variant, piles, face_down)
        game.play_to_end()
        return summarize(game)
    d = check_piles(variant, piles, face_down)
    return _two(variant, piles[0], piles[1], d)


# Bit masks with one 16-bit lane per battle of a round, for up to 52 battles.
_LANE_01 = [int.from_bytes(b"\x00\x01" * n, "big") for n in range(PACK_SIZE + 1)]
_LANE_80 = [x * 0x80 for x in _LANE_01]
_LANE_FF = [x * 0xFF for x in _LANE_01]


def _two(variant: Variant, a_cards: Sequence[Card], b_cards: Sequence[Card], d: int) -> Summary:
    # Only ranks decide a battle and a Summary names no card, so each pile is
    # the bytes of its ranks (0..12), top card first.
    a = bytes(map(RANK_OF.__getitem__, a_cards))
    b = bytes(map(RANK_OF.__getitem__, b_cards))
    low = variant.low_wins
    beats = lt if low else gt
    limit = variant.battle_limit if variant.battle_limit is not None else 1 << 62
    battles = 0
    while True:
        # A round: battle i pits a[i] against b[i] until the first tie or
        # until a pile reaches the cards it won in this round. The first tie
        # is the first zero byte of a XOR b.
        m = len(a) if len(a) < len(b) else len(b)
        if m > limit - battles:
            m = limit - battles
        diff = int.from_bytes(a[:m], "big") ^ int.from_bytes(b[:m], "big")
        k = diff.to_bytes(m, "big").find(0)
        tie = k >= 0
        if not tie:
            k = m
        if k:
            # One 16-bit lane per battle holds (a[i], b[i]); a lane's bit 7
            # after (x | 0x80) - y says x >= y, i.e. x > y as nothing ties here.
            both = bytearray(2 * k)
            both[::2] = a[:k]
            both[1::2] = b[:k]
            lanes = int.from_bytes(both, "big")
            ra = (lanes >> 8) & _LANE_FF[k]
            rb = lanes & _LANE_FF[k]
            if low:
                a_won = (((rb | _LANE_80[k]) - ra) >> 7) & _LANE_01[k]
            else:
                a_won = (((ra | _LANE_80[k]) - rb) >> 7) & _LANE_01[k]
            b_won = a_won ^ _LANE_01[k]
            # Each winner takes its lanes, a's card then b's (rule 6): the
            # other lanes are set to 0xFFFF and deleted.
            a = a[k:] + (lanes | b_won * 0xFFFF).to_bytes(2 * k, "big").translate(None, b"\xff")
            b = b[k:] + (lanes | a_won * 0xFFFF).to_bytes(2 * k, "big").translate(None, b"\xff")
            battles += k
            if not a or not b:
                return _won(a, b, battles)
            if battles >= limit:
                return _drawn(Reason.BATTLE_LIMIT, a, b, battles)
        if not tie:
            continue
        # A tie at the top of both piles: a battle with one or more peaces.
        battles += 1
        ua = a[0]
        ub = b[0]
        ia = ib = 1
        pot = bytearray((ua, ub))
        while ua == ub:
            # Laying order (rule 6): each peace seat by seat, face down then up.
            left_a = len(a) - ia
            left_b = len(b) - ib
            if not left_a and not left_b:
                return _drawn(Reason.UNRESOLVABLE, b"", b"", battles)
            if left_a:  # else rule 5.4: ua stands
                n = left_a if left_a <= d else d + 1
                pot += a[ia : ia + n]
                ia += n
                ua = a[ia - 1]
            if left_b:
                n = left_b if left_b <= d else d + 1
                pot += b[ib : ib + n]
                ib += n
                ub = b[ib - 1]
        if beats(ua, ub):
            a = a[ia:] + pot
            b = b[ib:]
        else:
            a = a[ia:]
            b = b[ib:] + pot
        if not a or not b:
            return _won(a, b, battles)
        if battles >= limit:
            return _drawn(Reason.BATTLE_LIMIT, a, b, battles)


def _won(a: bytes, b: bytes, battles: int) -> Summary:
    loser = 0 if not a else 1
    return Summary(
        outcome=Outcome.WIN,
        reason=Reason.ALL_CARDS,
        winner=1 - loser,
        battles=battles,
        final_counts=(len(a), len(b)),
        eliminated={loser: battles},
    )


def _drawn(reason: Reason, a: bytes, b: bytes, battles: int) -> Summary:
    return Summary(
        outcome=Outcome.DRAW,
        reason=reason,
        winner=None,
        battles=battles,
        final_counts=(len(a), len(b)),
        eliminated={},
    )
