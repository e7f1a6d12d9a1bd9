"""The slap games' statistics for their rules pages (RULES.md 11.8): how long a
game lasts and how often the quicker computer wins.

``python -m cardwar.web.slap_stats [--games N] [--processes N]`` lets
computers play :data:`GAMES` seeded games per table of :data:`TABLES`, for
Egyptian Ratscrew and Slapjack with their standard options
(:func:`cardwar.engine.simulate_slaps`; the seating is drawn from each seed,
so no skill keeps the first seat), and writes ``slap_stats.json``::

    {"games": N, "seed": SEED, "variants": {"ers": {"tables": [
        {"key": "normal-normal", "skills": ["normal", "normal"], "games": N,
         "wins": k, "share": k / N, "ci": [low, high], "mean_cards", "median_cards",
         "mean_slaps", "mean_burned", "draws", "bins": [{"from", "to", "games"}]},
        ...]}, "slapjack": {...}}}

``wins`` counts the games won by the computer (or computers) of the first
skill; ``ci`` is its 95% Wilson interval; ``bins`` counts games by length,
:data:`BIN` cards a bin (the game's own width), the last bin open-ended. The
page reads it (:func:`load`).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from cardwar.engine import Skill, SlapRules
from cardwar.engine.slap.simulate import play_rows

from .stats import wilson

STATS_PATH = Path(__file__).with_name("slap_stats.json")
GAMES = 10_000
SEED = "cardwar-slap-stats"
#: The tables played: a key and the skills by lobby position (the first is the
#: one whose wins are counted).
TABLES: dict[str, tuple[Skill, ...]] = {
    "normal-normal": (Skill.NORMAL, Skill.NORMAL),
    "sharp-normal": (Skill.SHARP, Skill.NORMAL),
    "normal-relaxed": (Skill.NORMAL, Skill.RELAXED),
    "sharp-relaxed": (Skill.SHARP, Skill.RELAXED),
    "sharp-normal-normal-normal": (Skill.SHARP, Skill.NORMAL, Skill.NORMAL, Skill.NORMAL),
}
VARIANTS = ("ers", "slapjack")
#: Cards per histogram bin, per game, and the bins before the open-ended last one.
BIN = {"ers": 100, "slapjack": 50}
BINS = 10


def table(variant: str, key: str, games: int, seed: str = SEED,
          processes: int = 1) -> dict[str, Any]:
    """Play one table of :data:`TABLES` (games seeded ``f"{seed}/{variant}/{key}/{i}"``)."""
    skills = TABLES[key]
    rows = play_rows(SlapRules.make(variant), len(skills), games, f"{seed}/{variant}/{key}",
                     skills, processes=processes)
    counted = [p for p, s in enumerate(skills) if s is skills[0]]
    if len(counted) == len(skills):  # every seat alike: the first lobby position's wins
        counted = [0]
    wins = sum(1 for r in rows if r[6] in counted)
    cards = [r[0] for r in rows]
    width = BIN[variant]
    counts = [0] * (BINS + 1)
    for n in cards:
        counts[min(n // width, BINS)] += 1
    return {
        "key": key, "skills": [s.value for s in skills], "games": games, "wins": wins,
        "share": round(wins / games, 5), "ci": wilson(wins, games),
        "mean_cards": round(statistics.fmean(cards), 1),
        "median_cards": statistics.median(cards),
        "mean_slaps": round(statistics.fmean(r[2] for r in rows), 1),
        "mean_burned": round(statistics.fmean(r[3] for r in rows), 1),
        "draws": sum(1 for r in rows if r[5] < 0),
        "bins": [{"from": b * width, "to": None if b == BINS else (b + 1) * width - 1,
                  "games": c} for b, c in enumerate(counts)],
    }


def compute(games: int = GAMES, seed: str = SEED, processes: int = 1) -> dict[str, Any]:
    """Every variant's tables (shape in the module docstring).

    Raises:
        ValueError: ``games`` is below 1.
    """
    return {"games": games, "seed": seed, "variants": {
        v: {"tables": [table(v, key, games, seed, processes) for key in TABLES]}
        for v in VARIANTS}}


@lru_cache(maxsize=1)
def load() -> dict[str, Any]:
    """Read ``slap_stats.json`` (cached for the life of the process).

    Raises:
        FileNotFoundError: the file is missing (run this module).
    """
    data: dict[str, Any] = json.loads(STATS_PATH.read_text(encoding="utf-8"))
    return data


def main(argv: list[str] | None = None) -> None:
    """Write ``slap_stats.json``."""
    parser = argparse.ArgumentParser(prog="python -m cardwar.web.slap_stats")
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--processes", type=int, default=1)
    args = parser.parse_args(argv)
    data = compute(args.games, processes=args.processes)
    STATS_PATH.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {STATS_PATH}", file=sys.stderr)


if __name__ == "__main__":
    main()
