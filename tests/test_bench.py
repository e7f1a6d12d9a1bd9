"""The load benchmark still runs against today's server: a short run with
a few games and spectators, every game set up and every flip answered (it
once failed silently when the site began limiting games per address)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_short_load_run_sets_up_every_game_and_answers_every_flip():
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "load.py"), "--games", "40", "--spectators", "36",
         "--seconds", "3", "--warmup", "1"],
        capture_output=True, text=True, timeout=180, cwd=ROOT, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    report = json.loads(run.stdout[run.stdout.index("{"):])
    assert report["setup_errors"] == 0, report["last_error"]
    assert report["errors"] == 0, report["last_error"]
    assert report["connections"] == 2 * 40 + 36
    # 80 players flipping once a second for 3 s; every battle reached both players
    assert report["flips_per_s"] > 40
    assert report["latency_ms"]["p50"] is not None
    assert report["server_cpu_ms_per_flip"] > 0
