"""Engine throughput: games per second of 2-player Peace, fast path vs. a plain baseline.

Deals ``--games`` seeded games (seeds ``bench/0``, ``bench/1``, ...) once,
then times only the play of :func:`cardwar.engine.play_fast` and of the plain
deque-based ``play_baseline`` of ``bench/baseline.py``, in the same process. Every
deal must give the same outcome, reason, winner, battle count and final
counts on both, or the benchmark fails (exit status 1).

    .venv/bin/python bench/engine.py [--games 2000] [--repeat 3] [--json] [--max-seconds 120]

Each engine is timed ``--repeat`` times, the runs alternating, and the
fastest run of each counts (as ``timeit`` does), so other work on the machine
disturbs the figures less.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from baseline import play_baseline  # noqa: E402

from cardwar.engine import PEACE, Card, Setup, play_fast  # noqa: E402

Piles = tuple[tuple[Card, ...], ...]


def _deals(games: int) -> list[Piles]:
    return [Setup.from_seed(PEACE, 2, f"bench/{i}").piles for i in range(games)]


def _time_fast(deals: list[Piles], budget: float) -> tuple[list[tuple[object, ...]], float]:
    results: list[tuple[object, ...]] = []
    start = time.perf_counter()
    for piles in deals:
        s = play_fast(PEACE, piles)
        results.append(
            (s.outcome.value, s.reason.value, s.winner, s.battles, s.final_counts)
        )
        if time.perf_counter() - start > budget:
            break
    return results, time.perf_counter() - start


def _time_baseline(deals: list[Piles], budget: float) -> tuple[list[tuple[object, ...]], float]:
    results: list[tuple[object, ...]] = []
    start = time.perf_counter()
    for piles in deals:
        results.append(
            play_baseline(
                piles,
                low_wins=PEACE.low_wins,
                face_down=PEACE.face_down,
                battle_limit=PEACE.battle_limit,
            )
        )
        if time.perf_counter() - start > budget:
            break
    return results, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--repeat", type=int, default=3, help="time each engine this often")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--max-seconds", type=float, default=120.0,
        help="stop each timed run after about this long (the ratio stays fair)",
    )
    args = p.parse_args(argv)
    if args.games < 1 or args.repeat < 1:
        p.error("--games and --repeat must be at least 1")
    deals = _deals(args.games)
    budget = args.max_seconds / (2 * args.repeat)
    # The runs alternate, so a busy spell on a shared machine hits both
    # engines alike; the fastest run of each counts. The baseline goes first:
    # it is the slow one, and if it runs out of time the fast path is timed
    # on the same deals it managed.
    base: list[tuple[object, ...]] = []
    fast: list[tuple[object, ...]] = []
    base_s = fast_s = float("inf")
    for _ in range(args.repeat):
        results, secs = _time_baseline(deals, budget)
        if not base or secs / len(results) < base_s / len(base):
            base, base_s = results, secs
        results, secs = _time_fast(deals[: len(base)], budget)
        if not fast or secs / len(results) < fast_s / len(fast):
            fast, fast_s = results, secs
    n = min(len(base), len(fast))
    mismatches = [i for i in range(n) if fast[i] != base[i]]
    battles = sum(int(str(r[3])) for r in base[:n])
    fast_rate = len(fast) / fast_s
    base_rate = len(base) / base_s
    report = {
        "variant": "peace",
        "players": 2,
        "games": n,
        "battles": battles,
        "fast_games_per_s": round(fast_rate, 1),
        "baseline_games_per_s": round(base_rate, 1),
        "ratio": round(fast_rate / base_rate, 2),
        "fast_seconds": round(fast_s, 3),
        "baseline_seconds": round(base_s, 3),
        "identical": not mismatches,
    }
    if args.json:
        print(json.dumps(report))
    else:
        print(f"2-player Peace, {n} seeded deals, {battles} battles in all")
        print(f"{'engine':<12} {'games':>6} {'seconds':>9} {'games/s':>10}")
        for name, count, secs in (
            ("play_fast", len(fast), fast_s), ("baseline", len(base), base_s)
        ):
            print(f"{name:<12} {count:>6} {secs:>9.3f} {count / secs:>10.1f}")
        print(f"ratio: play_fast is {fast_rate / base_rate:.2f}x the baseline")
        print("results identical on every deal" if not mismatches else
              f"MISMATCH on {len(mismatches)} deals, first: bench/{mismatches[0]}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
