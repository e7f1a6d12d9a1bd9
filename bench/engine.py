"""Engine throughput: games per second of 2-player Peace, on one core.

Deals ``--games`` seeded games (seeds ``bench/0``, ``bench/1``, ...) once,
then times only the play, in the same process and back to back:

* ``baseline``: the plain deque engine of ``bench/baseline.py``;
* ``rule engine``: :class:`cardwar.engine.Game`, battle by battle (the reference);
* ``play_fast``: the pure-Python whole-game path (``cardwar play``);
* ``core``: the compiled core (:func:`cardwar.engine.battles.simulate.play_piles`,
  which ``cardwar simulate`` uses), deals handed over as they are.

Every engine must give the same outcome, reason, winner, battle count and
final counts on every deal it played, or the benchmark fails (exit status 1).

    .venv/bin/python bench/engine.py [--games 2000] [--repeat 3] [--json] [--max-seconds 120]

Times are the process's CPU time (``time.process_time``), so a busy machine
slows the figures less than wall time would; each engine is timed
``--repeat`` times, the runs alternating, and its fastest run counts (as
``timeit`` does). The core is compiled (or loaded from numba's cache) before
the timing. The ratio is core / baseline.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from baseline import play_baseline

from cardwar.engine import PEACE, Card, Game, Setup, play_fast, summarize
from cardwar.engine.battles.simulate import play_piles

Piles = tuple[tuple[Card, ...], ...]
Row = tuple[object, ...]
Engine = Callable[[list[Piles], float], "list[Row] | tuple[list[Row], float]"]


def _deals(games: int) -> list[Piles]:
    return [Setup.from_seed(PEACE, 2, f"bench/{i}").piles for i in range(games)]


def _baseline(deals: list[Piles], budget: float) -> list[Row]:
    out: list[Row] = []
    start = time.process_time()
    for piles in deals:
        out.append(play_baseline(piles, low_wins=PEACE.low_wins, face_down=PEACE.face_down,
                                 battle_limit=PEACE.battle_limit))
        if time.process_time() - start > budget:
            break
    return out


def _rule_engine(deals: list[Piles], budget: float) -> list[Row]:
    out: list[Row] = []
    start = time.process_time()
    for piles in deals:
        game = Game(PEACE, piles)
        game.play_to_end()
        s = summarize(game)
        out.append((s.outcome.value, s.reason.value, s.winner, s.battles, s.final_counts))
        if time.process_time() - start > budget:
            break
    return out


def _play_fast(deals: list[Piles], budget: float) -> list[Row]:
    out: list[Row] = []
    start = time.process_time()
    for piles in deals:
        s = play_fast(PEACE, piles)
        out.append((s.outcome.value, s.reason.value, s.winner, s.battles, s.final_counts))
        if time.process_time() - start > budget:
            break
    return out


def _core(deals: list[Piles], budget: float) -> tuple[list[Row], float]:
    start = time.process_time()
    games = play_piles(PEACE, deals)
    secs = time.process_time() - start
    out: list[Row] = []
    for i in range(len(deals)):  # the same rows as the others, outside the timing
        s = games.summary(i)
        out.append((s.outcome.value, s.reason.value, s.winner, s.battles, s.final_counts))
    return out, secs


ENGINES: dict[str, Engine] = {
    "baseline": _baseline, "rule engine": _rule_engine, "play_fast": _play_fast, "core": _core,
}


def _time(engine: Engine, deals: list[Piles], budget: float) -> tuple[list[Row], float]:
    start = time.process_time()
    rows = engine(deals, budget)
    if isinstance(rows, tuple):  # the core times itself
        return rows
    return rows, time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--repeat", type=int, default=3, help="time each engine this often")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--max-seconds", type=float, default=120.0,
        help="stop each timed run of a slow engine after about this share of it",
    )
    args = p.parse_args(argv)
    if args.games < 1 or args.repeat < 1:
        p.error("--games and --repeat must be at least 1")
    deals = _deals(args.games)
    play_piles(PEACE, deals[:2])  # compile, or load from numba's cache
    budget = args.max_seconds / (len(ENGINES) * args.repeat)
    # The runs alternate, so a busy spell on a shared machine hits every
    # engine alike; the fastest run of each counts. The baseline goes first:
    # the others play the deals it managed.
    best: dict[str, tuple[list[Row], float]] = {}
    for _ in range(args.repeat):
        for name, engine in ENGINES.items():
            todo = deals if name == "baseline" else deals[: len(best["baseline"][0])]
            rows, secs = _time(engine, todo, budget)
            old = best.get(name)
            if old is None or secs / len(rows) < old[1] / len(old[0]):
                best[name] = (rows, secs)
    n = min(len(rows) for rows, _ in best.values())
    reference = best["baseline"][0]
    mismatches = {name: [i for i in range(n) if rows[i] != reference[i]]
                  for name, (rows, _) in best.items()}
    rate = {name: len(rows) / secs for name, (rows, secs) in best.items()}
    ratio = rate["core"] / rate["baseline"]
    identical = not any(mismatches.values())
    report = {
        "variant": "peace",
        "players": 2,
        "games": n,
        "battles": sum(int(str(r[3])) for r in reference[:n]),
        "games_per_s": {name: round(r, 1) for name, r in rate.items()},
        "ratio": round(ratio, 1),
        "identical": identical,
    }
    if args.json:
        print(json.dumps(report))
    else:
        print(f"2-player Peace, {n} seeded deals, {report['battles']} battles in all (CPU time)")
        print(f"{'engine':<12} {'games':>6} {'seconds':>9} {'games/s':>11}")
        for name, (rows, secs) in best.items():
            print(f"{name:<12} {len(rows):>6} {secs:>9.3f} {rate[name]:>11.1f}")
        print(f"ratio: the core is {ratio:.1f}x the baseline")
        for name, bad in mismatches.items():
            if bad:
                print(f"MISMATCH {name} on {len(bad)} deals, first: bench/{bad[0]}")
        if identical:
            print("results identical on every deal")
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
