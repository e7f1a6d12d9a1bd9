"""How long games last and who wins them: simulated statistics for the rules pages.

The numbers come from the compiled core (:func:`cardwar.engine.battles.simulate.play_games`)
and are precomputed into ``stats.json`` beside this module, so no request
ever simulates. Regenerate after a rules change with ``make stats``
(``python -m cardwar.web.stats [--games N] [--processes N]``);
``tests/web/test_stats.py`` checks the file against a fresh, smaller
simulation, within the confidence intervals.

Every share comes with its 95% Wilson score interval, every mean with a
normal-approximation interval and every median with the order-statistics
interval (all as ``[low, high]``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardwar.engine import VARIANTS, Variant
from cardwar.engine.battles.simulate import REASONS, median, play_games

if TYPE_CHECKING:  # numpy loads only to compute (the pages read the JSON)
    from cardwar.engine.battles.simulate import IntArray

STATS_PATH = Path(__file__).resolve().parent / "stats.json"
GAMES = 100_000
SEED = "cardwar-site"
Z95 = 1.959964
#: Bars of a histogram: 10 up to the battle limit, or of :data:`WIDTH_NO_LIMIT`
#: battles up to :data:`TOP_NO_LIMIT` and one bar for the longer games.
BARS = 10
WIDTH_NO_LIMIT = 300
TOP_NO_LIMIT = 3000


def wilson(k: int, n: int, z: float = Z95) -> list[float]:
    """The Wilson score interval ``[low, high]`` of the share ``k / n``.

    Raises:
        ValueError: ``n`` is below 1 or ``k`` is not in ``0..n``.
    """
    if n < 1 or not 0 <= k <= n:
        raise ValueError(f"no share {k} of {n}")
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return [round(max(0.0, centre - half), 5), round(min(1.0, centre + half), 5)]


def mean_interval(values: IntArray, z: float = Z95) -> list[float]:
    """``[low, high]``: the mean plus or minus ``z`` standard errors."""
    import numpy as np

    m = float(np.mean(values))
    half = z * float(np.std(values, ddof=1)) / math.sqrt(len(values)) if len(values) > 1 else 0
    return [round(m - half, 2), round(m + half, 2)]


def median_interval(values: IntArray, z: float = Z95) -> list[int]:
    """``[low, high]``: the order statistics around the median that hold it
    with 95% confidence (binomial, normal approximation)."""
    import numpy as np

    s = np.sort(values)
    n = len(s)
    half = z * math.sqrt(n) / 2
    lo = max(0, math.floor(n / 2 - half) - 1)
    hi = min(n - 1, math.ceil(n / 2 + half))
    return [int(s[lo]), int(s[hi])]


def bars(variant: Variant) -> tuple[int, int]:
    """The (width, top) of the variant's histogram bars, in battles."""
    if variant.battle_limit:
        return max(1, variant.battle_limit // BARS), variant.battle_limit
    return WIDTH_NO_LIMIT, TOP_NO_LIMIT


def histogram(variant: Variant, battles: IntArray) -> dict[str, Any]:
    """``{"width", "top", "limit", "counts"}``: games of ``1..width`` battles
    in the first bar, ``width+1..2*width`` in the next, ...; with a battle
    limit (``limit`` true) the last bar ends at it, without one the last bar
    holds every game longer than ``top - width``."""
    import numpy as np

    width, top = bars(variant)
    n = -(-top // width)
    index = np.minimum((battles - 1) // width, n - 1)
    return {"width": width, "top": top, "limit": variant.battle_limit is not None,
            "counts": [int(c) for c in np.bincount(index, minlength=n)]}


def _shares(wins: IntArray, decided: int) -> list[dict[str, Any]]:
    return [{"wins": int(w), "share": round(int(w) / decided, 5) if decided else 0.0,
             "ci": wilson(int(w), decided) if decided else [0.0, 1.0]} for w in wins]


def compute(variant: str, players: int, games: int = GAMES, seed: str = SEED,
            processes: int = 1) -> dict[str, Any]:
    """Simulate ``games`` games of ``variant`` with ``players`` players (seeds
    ``f"{seed}/{variant}/{players}/{i}"``).

    Returns:
        ``{"players", "games", "mean_battles", "mean_ci", "median_battles",
        "median_ci", "max_battles", "draw_share", "draw_ci", "reasons"
        (reason -> count), "limit_share", "limit_ci", "cycle_share",
        "cycle_ci", "histogram" (:func:`histogram`), "seats" and "lobby"
        (per table seat, and per lobby position after the seating draw:
        ``{"wins", "share", "ci"}`` among the games won)}``.

    Raises:
        OptionError: the variant does not allow ``players``.
    """
    import numpy as np

    v = VARIANTS[variant]
    g = play_games(v, players, games, f"{seed}/{variant}/{players}", processes=processes)
    reasons = {r: int(n) for r, n in zip(REASONS, np.bincount(g.reason, minlength=4),
                                          strict=True)}
    draws = int(np.sum(g.winner < 0))
    decided = games - draws
    lobby = g.lobby_winner()
    return {
        "players": players,
        "games": games,
        "mean_battles": round(float(np.mean(g.battles)), 2),
        "mean_ci": mean_interval(g.battles),
        "median_battles": median(g.battles),
        "median_ci": median_interval(g.battles),
        "max_battles": int(g.battles.max()),
        "draw_share": round(draws / games, 5),
        "draw_ci": wilson(draws, games),
        "reasons": reasons,
        "limit_share": round(reasons["battle_limit"] / games, 5),
        "limit_ci": wilson(reasons["battle_limit"], games),
        "cycle_share": round(reasons["cycle"] / games, 5),
        "cycle_ci": wilson(reasons["cycle"], games),
        "histogram": histogram(v, g.battles),
        "seats": _shares(np.bincount(g.winner[g.winner >= 0], minlength=players), decided),
        "lobby": _shares(np.bincount(lobby[lobby >= 0], minlength=players), decided),
    }


def compute_all(games: int = GAMES, seed: str = SEED, processes: int = 1) -> dict[str, Any]:
    """Statistics for every battle variant and every allowed player count.

    Returns:
        ``{"games", "seed", "variants": {name: [row per player count]}}``
        with rows as returned by :func:`compute`.
    """
    return {
        "games": games,
        "seed": seed,
        "variants": {
            name: [compute(name, p, games, seed, processes) for p in v.players]
            for name, v in VARIANTS.items()
            if v.play == "battles"  # games in turns: cardwar.web.beggar_stats
        },
    }


@lru_cache(maxsize=1)
def load() -> dict[str, Any]:
    """Read the precomputed statistics (cached for the life of the process).

    Raises:
        FileNotFoundError: ``stats.json`` is missing (run ``make stats``).
    """
    data: dict[str, Any] = json.loads(STATS_PATH.read_text(encoding="utf-8"))
    return data


def for_variant(name: str) -> list[dict[str, Any]]:
    """Rows for variant ``name``, one per player count; empty when unknown."""
    return list(load()["variants"].get(name, []))


def main(argv: list[str] | None = None) -> int:
    """Write ``stats.json``; print how long it took (about a minute on two cores)."""
    p = argparse.ArgumentParser(prog="python -m cardwar.web.stats",
                                description="Regenerate the rules pages' statistics.")
    p.add_argument("--games", type=int, default=GAMES, help="games per row")
    p.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    p.add_argument("--out", type=Path, default=STATS_PATH)
    args = p.parse_args(argv)
    if args.games < 1 or args.processes < 1:
        p.error("--games and --processes must be at least 1")
    start = time.perf_counter()
    data = compute_all(args.games, SEED, args.processes)
    args.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {args.out} in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
