"""Many games at once: statistics for the rules pages and ``cardwar simulate``.

Games are dealt from their seeds and played by the compiled core
(:mod:`cardwar.engine.battles.core`), in chunks, optionally spread over several
processes; the results are the same game by game as the rule-by-rule
:class:`~cardwar.engine.battles.game.Game`, and the same whatever the number of
processes. numpy and numba are imported only when the first game is
simulated: the web server imports the engine and needs neither.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..cards import PACK_SIZE, Card
from ..ending import Outcome, Reason
from ..variants import Variant
from .fast import Summary
from .game import check_piles

#: Games per call of the compiled core: progress is reported after each.
CHUNK = 5000

if TYPE_CHECKING:  # numpy (and numba) load when the first game is simulated
    import numpy as np
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]

#: The battle games' reasons in the core's order (its result codes index this).
REASONS: tuple[str, ...] = tuple(r.value for r in (
    Reason.ALL_CARDS, Reason.BATTLE_LIMIT, Reason.UNRESOLVABLE, Reason.CYCLE))


@dataclass(frozen=True)
class Games:
    """Per-game results of a simulation, game ``i`` at row ``i``.

    Attributes:
        reason: index into :data:`REASONS` (``Reason`` values in order).
        winner: the winning table seat, or -1 for a draw.
        battles: battles played.
        counts: ``(games, players)``: each seat's cards at the end.
        eliminated: ``(games, players)``: the battle a seat went out in, 0 if never.
        seating: ``(games, players)``: table seat -> lobby position (RULES.md 9).
    """

    reason: IntArray
    winner: IntArray
    battles: IntArray
    counts: IntArray
    eliminated: IntArray
    seating: IntArray

    def summary(self, i: int) -> Summary:
        """Game ``i`` as the :class:`~cardwar.engine.battles.fast.Summary` the
        rule-by-rule engine gives (:func:`~cardwar.engine.battles.fast.summarize`)."""
        winner = int(self.winner[i])
        return Summary(
            outcome=Outcome.WIN if winner >= 0 else Outcome.DRAW,
            reason=Reason(REASONS[int(self.reason[i])]),
            winner=winner if winner >= 0 else None,
            battles=int(self.battles[i]),
            final_counts=tuple(int(n) for n in self.counts[i]),
            eliminated={s: int(b) for s, b in enumerate(self.eliminated[i]) if b},
        )

    def lobby_winner(self) -> IntArray:
        """The winner's lobby position per game (-1 for a draw)."""
        import numpy as np

        rows = np.arange(len(self.winner))
        won = self.seating[rows, np.maximum(self.winner, 0)]
        return np.where(self.winner >= 0, won, -1)



def _check_battles(variant: Variant) -> None:
    if variant.play != "battles":
        raise ValueError(f"{variant.name} is not a battle game (RULES.md 4-7)")


def _keys(variant: Variant) -> IntArray:
    """Per card, its battle key: the lowest key wins (rank, or 12 - rank in War)."""
    import numpy as np

    ranks = np.arange(52, dtype=np.int64) % 13
    return ranks if variant.low_wins else 12 - ranks


def play_chunk(variant: Variant, players: int, face_down: int, seed: str, first: int,
               count: int) -> Games:
    """Deal and play games ``first .. first + count - 1`` of ``seed``.

    Game ``i`` is dealt from the seed ``f"{seed}/{i}"`` (RULES.md 9, 3).
    ``face_down`` must already be checked (:meth:`Variant.check`).
    """
    import numpy as np

    from . import core

    if tuple(r for r in core.REASONS) != REASONS:  # pragma: no cover - a code change
        raise RuntimeError("the core's reasons are out of step with Reason")
    reason = np.empty(count, np.int64)
    winner = np.empty(count, np.int64)
    battles = np.empty(count, np.int64)
    counts = np.empty((count, players), np.int64)
    elim = np.empty((count, players), np.int64)
    order = np.empty((count, players), np.int64)
    prefix = np.frombuffer(seed.encode("utf-8"), np.uint8)
    core.play_seeded(prefix, first, players, _keys(variant), face_down,
                     variant.battle_limit or 0, variant.cycle_draw, np.uint64(core.HASH_BASE),
                     reason, winner, battles, counts, elim, order)
    return Games(reason, winner, battles, counts, elim, order)


def play_piles(variant: Variant, deals: Sequence[Sequence[Sequence[Card]]],
               face_down: int | None = None, hash_base: int | None = None) -> Games:
    """Play each deal (its piles, top card first; all with the same number
    of seats) to the end with the compiled core.

    Args:
        hash_base: an odd number, the first base of the position hash of
            cycle draws; it changes the speed, never a result (tests pass a
            weak one to force hash collisions). Default: :data:`core.HASH_BASE`.

    Returns:
        The :class:`Games`; ``seating`` is the identity (no seed draws it).

    Raises:
        OptionError: an option the variant does not allow.
        ValueError: no deals, deals with different numbers of seats, a
            card not in ``0..51``, a duplicate card, an empty pile, or an
            even ``hash_base``.
    """
    import numpy as np

    from . import core

    if not deals:
        raise ValueError("no deals to play")
    _check_battles(variant)
    players = len(deals[0])
    fd = variant.check(players, face_down)
    base = core.HASH_BASE if hash_base is None else hash_base
    if base % 2 == 0 or not 0 < base < 1 << 64:
        raise ValueError("the hash base must be odd and below 2**64")
    count = len(deals)
    flat, lens = _as_arrays(variant, deals, players, face_down)
    reason = np.empty(count, np.int64)
    winner = np.empty(count, np.int64)
    battles = np.empty(count, np.int64)
    counts = np.empty((count, players), np.int64)
    elim = np.empty((count, players), np.int64)
    core.play_many(flat, lens, players, _keys(variant), fd, variant.battle_limit or 0,
                   variant.cycle_draw, np.uint64(base), reason, winner, battles, counts, elim)
    order = np.tile(np.arange(players, dtype=np.int64), (count, 1))
    return Games(reason, winner, battles, counts, elim, order)


def _as_arrays(variant: Variant, deals: Sequence[Sequence[Sequence[Card]]], players: int,
               face_down: int | None) -> tuple[IntArray, IntArray]:
    """The deals as (cards seat after seat, cards per seat) rows, checked."""
    import numpy as np

    for piles in deals:
        if len(piles) != players:
            raise ValueError("every deal needs the same number of seats")
    sizes = {len(p) for piles in deals for p in piles}
    if len(sizes) == 1 and 0 not in sizes:
        # Every pile the same size (dealt games): one C-level conversion and
        # a check for duplicates on the sorted rows.
        flat = np.array(deals, dtype=np.int64).reshape(len(deals), -1)
        if flat.size and (flat.min() < 0 or flat.max() >= PACK_SIZE):
            raise ValueError("a card is not one of the 52")
        if np.any(np.diff(np.sort(flat, axis=1), axis=1) == 0):
            raise ValueError("a card appears twice")
        return flat, np.full((len(deals), players), sizes.pop(), np.int64)
    flat = np.zeros((len(deals), PACK_SIZE), np.int64)
    lens = np.zeros((len(deals), players), np.int64)
    for g, piles in enumerate(deals):
        check_piles(variant, piles, face_down)
        cards = [c for p in piles for c in p]
        if not all(0 <= c < PACK_SIZE for c in cards):
            raise ValueError("a card is not one of the 52")
        flat[g, : len(cards)] = cards
        lens[g] = [len(p) for p in piles]
    return flat, lens


def _join(parts: list[Games]) -> Games:
    import numpy as np

    return Games(*(np.concatenate([getattr(p, f) for p in parts]) for f in (
        "reason", "winner", "battles", "counts", "eliminated", "seating")))


def play_games(
    variant: Variant,
    players: int,
    games: int,
    seed: str = "sim",
    face_down: int | None = None,
    progress: Callable[[int], None] | None = None,
    processes: int = 1,
) -> Games:
    """Play ``games`` games with seeds ``f"{seed}/0"``, ``f"{seed}/1"``, ...

    Args:
        progress: called with the number of games just finished, after each
            chunk of :data:`CHUNK` games (for a progress bar).
        processes: spread the chunks over this many processes; the results
            are the same, game by game.

    Raises:
        OptionError: an option the variant does not allow.
        ValueError: ``games`` or ``processes`` is below 1, or the variant is
            not a battle game.
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    _check_battles(variant)
    if processes < 1:
        raise ValueError("processes must be at least 1")
    fd = variant.check(players, face_down)
    starts = list(range(0, games, CHUNK))
    spans = [(s, min(CHUNK, games - s)) for s in starts]
    parts: list[Games | None] = [None] * len(spans)
    if processes == 1 or len(spans) == 1:
        for i, (first, count) in enumerate(spans):
            parts[i] = play_chunk(variant, players, fd, seed, first, count)
            if progress is not None:
                progress(count)
    else:
        # Compile (or load) the core here first: forked workers inherit it,
        # spawned ones (where fork is missing) load it from numba's cache.
        play_chunk(variant, players, fd, seed, 0, 1)
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        with ProcessPoolExecutor(processes, mp_context=context) as pool:
            futures = {pool.submit(play_chunk, variant, players, fd, seed, first, count): i
                       for i, (first, count) in enumerate(spans)}
            for future in as_completed(futures):
                i = futures[future]
                parts[i] = future.result()
                if progress is not None:
                    progress(spans[i][1])
    return _join([p for p in parts if p is not None])


def median(values: IntArray) -> int | float:
    """The median as :func:`statistics.median` gives it: a middle value, or
    the mean of the two middle ones (a float) for an even count."""
    import numpy as np

    s = np.sort(values)
    n = len(s)
    if n % 2:
        return int(s[n // 2])
    return (int(s[n // 2 - 1]) + int(s[n // 2])) / 2


def simulate(
    variant: Variant,
    players: int,
    games: int,
    seed: str = "sim",
    face_down: int | None = None,
    progress: Callable[[int], None] | None = None,
    processes: int = 1,
) -> dict[str, Any]:
    """Play ``games`` games (see :func:`play_games`) and summarise them.

    Returns:
        ``{"variant", "players", "face_down", "games", "seed",
        "mean_battles", "median_battles", "min_battles", "max_battles",
        "reasons" (reason -> count, every reason present), "draw_share"
        (0..1), "wins_by_seat" (list by table seat), "wins_by_lobby" (list
        by lobby position, after the seating draw of RULES.md 9)}``.

    Raises:
        OptionError: an option the variant does not allow.
        ValueError: ``games`` or ``processes`` is below 1.
    """
    import numpy as np

    fd = variant.check(players, face_down)
    g = play_games(variant, players, games, seed, fd, progress, processes)
    reasons = np.bincount(g.reason, minlength=len(REASONS))
    wins = np.bincount(g.winner[g.winner >= 0], minlength=players)
    lobby = g.lobby_winner()
    lobby_wins = np.bincount(lobby[lobby >= 0], minlength=players)
    return {
        "variant": variant.name,
        "players": players,
        "face_down": fd,
        "games": games,
        "seed": seed,
        "mean_battles": round(float(np.mean(g.battles)), 2),
        "median_battles": median(g.battles),
        "min_battles": int(g.battles.min()),
        "max_battles": int(g.battles.max()),
        "reasons": {r: int(n) for r, n in zip(REASONS, reasons, strict=True)},
        "draw_share": round(int(np.sum(g.winner < 0)) / games, 4),
        "wins_by_seat": [int(n) for n in wins],
        "wins_by_lobby": [int(n) for n in lobby_wins],
    }
