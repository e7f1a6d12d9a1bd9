"""Many games at once: statistics for the rules pages and ``cardwar simulate``."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable
from typing import Any

from .fast import play_fast
from .game import Reason
from .records import Setup
from .variants import Variant


def simulate(
    variant: Variant,
    players: int,
    games: int,
    seed: str = "sim",
    face_down: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``games`` games with seeds ``f"{seed}/0"``, ``f"{seed}/1"``, ...

    Args:
        progress: called with 1 after each game (for a progress bar).

    Returns:
        ``{"variant", "players", "games", "seed", "mean_battles",
        "median_battles", "min_battles", "max_battles", "reasons" (reason ->
        count, every reason present), "draw_share" (0..1), "wins_by_seat"
        (list by seat)}``.

    Raises:
        OptionError: an option the variant does not allow.
        ValueError: ``games`` is below 1.
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    fd = variant.check(players, face_down)
    lengths: list[int] = []
    reasons: Counter[str] = Counter({r.value: 0 for r in Reason})
    wins = [0] * players
    for i in range(games):
        setup = Setup.from_seed(variant, players, f"{seed}/{i}", fd)
        s = play_fast(variant, setup.piles, fd)
        lengths.append(s.battles)
        reasons[s.reason.value] += 1
        if s.winner is not None:
            wins[s.winner] += 1
        if progress is not None:
            progress(1)
    draws = games - sum(wins)
    return {
        "variant": variant.name,
        "players": players,
        "face_down": fd,
        "games": games,
        "seed": seed,
        "mean_battles": round(statistics.fmean(lengths), 2),
        "median_battles": statistics.median(lengths),
        "min_battles": min(lengths),
        "max_battles": max(lengths),
        "reasons": dict(reasons),
        "draw_share": round(draws / games, 4),
        "wins_by_seat": wins,
    }
