"""How long Beggar-my-neighbour lasts: the rules page's statistics (RULES.md 10).

``python -m cardwar.web.beggar_stats`` plays :data:`GAMES` shuffled deals
(seeds ``f"{SEED}/0"``, ...) with the fast engine and writes
``beggar_stats.json``: ``{"games", "seed", "mean_cards", "median_cards",
"mean_tricks", "median_tricks", "max_cards", "cycles", "bins": [{"from",
"to", "games"}]}`` (games by length in cards, :data:`BIN` cards a bin; the
last bin holds everything longer). The page reads it (:func:`load`).
"""

from __future__ import annotations

import json
import statistics
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from cardwar.engine import BeggarSetup, Reason, play_beggar_fast

STATS_PATH = Path(__file__).with_name("beggar_stats.json")
#: Deals played, and the seed their shuffles start from.
GAMES = 20_000
SEED = "cardwar-beggar-stats"
#: Cards per histogram bin, and the bins before the open-ended last one.
BIN = 100
BINS = 12


def compute(games: int = GAMES, seed: str = SEED) -> dict[str, Any]:
    """Play ``games`` deals and return the statistics (shape in the module docstring).

    Raises:
        ValueError: ``games`` is below 1.
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    cards, tricks, cycles = [], [], 0
    for i in range(games):
        summary = play_beggar_fast(BeggarSetup.from_seed(f"{seed}/{i}").piles)
        cards.append(summary.cards_played)
        tricks.append(summary.tricks)
        cycles += summary.reason is Reason.CYCLE
    counts = [0] * (BINS + 1)
    for n in cards:
        counts[min(n // BIN, BINS)] += 1
    bins = [{"from": b * BIN, "to": None if b == BINS else (b + 1) * BIN - 1, "games": c}
            for b, c in enumerate(counts)]
    return {
        "games": games, "seed": seed,
        "mean_cards": round(statistics.fmean(cards), 1), "median_cards": statistics.median(cards),
        "mean_tricks": round(statistics.fmean(tricks), 1),
        "median_tricks": statistics.median(tricks), "max_cards": max(cards),
        "cycles": cycles, "bins": bins,
    }


@lru_cache(maxsize=1)
def load() -> dict[str, Any]:
    """Read ``beggar_stats.json`` (cached for the life of the process).

    Raises:
        FileNotFoundError: the file is missing (run this module).
    """
    data: dict[str, Any] = json.loads(STATS_PATH.read_text(encoding="utf-8"))
    return data


def main() -> None:
    """Write ``beggar_stats.json``."""
    STATS_PATH.write_text(json.dumps(compute(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {STATS_PATH}", file=sys.stderr)


if __name__ == "__main__":
    main()
