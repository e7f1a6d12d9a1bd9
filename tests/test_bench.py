"""The benchmarks still run against today's server (short runs, no timing
assertions): every game set up and every flip answered (the load benchmark
once failed silently when the site began limiting games per address), the
floor run beside cardwar's, nginx in front of two processes, and the memory
benchmark's line after each batch of games."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import asyncpg

ROOT = Path(__file__).resolve().parent.parent


def run_bench(script: str, *args: str) -> str:
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *args],
        capture_output=True, text=True, timeout=240, cwd=ROOT, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout


def load_report(stdout: str) -> tuple[list[str], dict[str, Any]]:
    """The side-by-side lines and the JSON report of ``bench/load.py``."""
    head, brace, rest = stdout.partition("{")
    return head.strip().splitlines(), json.loads(brace + rest)


def assert_clean(report: dict[str, Any], connections: int) -> None:
    assert report["setup_errors"] == 0, report["last_error"]
    assert report["errors"] == 0, report["last_error"]
    assert report["connections"] == connections
    assert report["latency_ms"]["p50"] is not None
    assert report["server_cpu_ms_per_flip"] > 0


def test_a_short_load_run_sets_up_every_game_and_answers_every_flip():
    lines, report = load_report(run_bench(
        "load.py", "--games", "40", "--spectators", "36", "--seconds", "3", "--warmup", "1"))
    assert_clean(report, 2 * 40 + 36)
    # 80 players flipping once a second for 3 s; every battle reached both players
    assert report["flips_per_s"] > 40
    # the floor ran under the same load, and cardwar's CPU is given as a multiple of it
    assert_clean(report["floor"], 2 * 40)
    assert report["floor"]["setup"].startswith("floor (bench/floor.py), 1 process(es), SQLite")
    assert report["cpu_vs_floor"] > 0
    assert [line.split(" | ")[0].split(",")[0] for line in lines[1:]] == ["cardwar", "floor "
                                                                          "(bench/floor.py)"]


def _schemas(*sql: str) -> set[str]:
    """Run ``sql`` on the test database; the ``cw_load_`` schemas there after it."""
    async def run() -> set[str]:
        conn = await asyncpg.connect("postgresql://postgres@127.0.0.1:5432/test")
        try:
            for statement in sql:
                await conn.execute(statement)
            rows = await conn.fetch("SELECT nspname FROM pg_namespace "
                                    "WHERE nspname LIKE 'cw_load_%'")
            return {row["nspname"] for row in rows}
        finally:
            await conn.close()
    return asyncio.run(run())


def _gone_pid() -> int:
    """The id of a process that has exited."""
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    return int(done.stdout)


def test_two_processes_run_behind_nginx_beside_one():
    # a killed run's schema (its process gone) is dropped; a running one's is kept
    killed, running = f"cw_load_{_gone_pid()}_dead", f"cw_load_{os.getpid()}_beef"
    _schemas(*(f'CREATE SCHEMA "{name}"' for name in (killed, running)))
    try:
        lines, report = load_report(run_bench(
            "load.py", "--processes", "2", "--postgres", "--games", "10", "--seconds", "2",
            "--warmup", "1"))
        left = _schemas()
    finally:
        _schemas(*(f'DROP SCHEMA IF EXISTS "{name}"' for name in (killed, running)))
    assert killed not in left
    assert running in left
    assert not {name for name in left if name.startswith("cw_load_")} - {running}, left
    assert_clean(report, 20)
    assert_clean(report["one_process"], 20)
    # the control: the floor on one process and on two, each game on one of them
    # (its CPU is in clock ticks: a two-second run of the floor may round to 0)
    for floor in (report["floor"], report["floor_processes"]):
        assert (floor["setup_errors"], floor["errors"], floor["connections"]) == (0, 0, 20)
    assert len(report["floor_processes"]["server_cpu_percent"]) == 2
    assert "floor_vs_one_process" in report
    assert report["setup"].startswith("cardwar, 2 process(es) behind nginx, PostgreSQL + Redis")
    assert report["one_process"]["setup"].startswith("cardwar, 1 process(es) behind nginx")
    # nginx was measured apart from the servers (in clock ticks: a two-second run may round to 0)
    assert report["nginx_cpu_ms_per_flip"] >= 0
    assert len(report["server_cpu_percent"]) == 2
    assert set(report["vs_one_process"]) == {"server_cpu_ms_per_flip", "p99"}
    # what a flip's CPU goes to (Redis is shared with other tests: no figure asserted)
    for run in (report, report["one_process"]):
        assert {"pg_commits_per_flip", "redis_publishes_per_flip", "server_waits_per_flip",
                "server_preemptions_per_flip"} <= set(run)
    assert len(lines) == 5  # the header and a line per run


def test_the_memory_benchmark_prints_rss_after_each_batch():
    out = run_bench("memory.py", "--games", "20", "--every", "10", "--parallel", "10",
                    "--stacked")
    rows = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert [r["games"] for r in rows[:3]] == [0, 10, 20]
    assert all(r["rss_mib"] > 0 for r in rows)
