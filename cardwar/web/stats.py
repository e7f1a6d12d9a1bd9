"""How long games last: simulated statistics for the rules pages.

The numbers come from :func:`cardwar.engine.simulate` and are precomputed
into ``stats.json`` beside this module, so no request ever simulates.
Regenerate after a rules change with ``python -m cardwar.web.stats``;
``tests/web/test_stats.py`` checks the file still matches the engine.
"""

from __future__ import annotations

import json
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from cardwar.engine import VARIANTS, simulate

STATS_PATH = Path(__file__).resolve().parent / "stats.json"
GAMES = 2000
SEED = "cardwar-site"


def compute(variant: str, players: int, games: int = GAMES, seed: str = SEED) -> dict[str, Any]:
    """Simulate ``games`` games of ``variant`` with ``players`` players.

    Returns:
        ``{"players", "games", "mean_battles", "median_battles",
        "max_battles", "draw_share", "reasons"}`` (reasons: reason -> count).

    Raises:
        OptionError: the variant does not allow ``players``.
    """
    raw = simulate(VARIANTS[variant], players, games, f"{seed}/{variant}/{players}")
    return {
        "players": players,
        "games": raw["games"],
        "mean_battles": raw["mean_battles"],
        "median_battles": raw["median_battles"],
        "max_battles": raw["max_battles"],
        "draw_share": raw["draw_share"],
        "reasons": raw["reasons"],
    }


def compute_all(games: int = GAMES, seed: str = SEED) -> dict[str, Any]:
    """Statistics for every variant and every allowed player count.

    Returns:
        ``{"games", "seed", "variants": {name: [row per player count]}}``
        with rows as returned by :func:`compute`.
    """
    return {
        "games": games,
        "seed": seed,
        "variants": {
            name: [compute(name, p, games, seed) for p in v.players]
            for name, v in VARIANTS.items()
            if v.play == "battles"  # games in turns: cardwar.web.beggar_stats
        },
    }


@lru_cache(maxsize=1)
def load() -> dict[str, Any]:
    """Read the precomputed statistics (cached for the life of the process).

    Raises:
        FileNotFoundError: ``stats.json`` is missing (run this module).
    """
    data: dict[str, Any] = json.loads(STATS_PATH.read_text(encoding="utf-8"))
    return data


def for_variant(name: str) -> list[dict[str, Any]]:
    """Rows for variant ``name``, one per player count; empty when unknown."""
    return list(load()["variants"].get(name, []))


def main() -> None:
    """Write ``stats.json`` (takes about a minute on one core)."""
    data = compute_all()
    STATS_PATH.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {STATS_PATH}", file=sys.stderr)


if __name__ == "__main__":
    main()
