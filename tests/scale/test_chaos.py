"""The chaos soak, short (issue 24): 30 seconds of two app processes on a
private PostgreSQL and Redis, one fault of each kind, then the games played to
the end, and every figure of its line at zero (bench/chaos.py runs the long
ones, README "Chaos soak": 5 and 30 minutes; this keeps it honest in CI, in
about a minute)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from .conftest import ROOT
from .test_faults import PG_BIN

ZEROS = ("seq_gaps", "doubled_battles", "lost_flips", "unsent_flips", "shown_offline",
         "wrong_seat", "never_saw_end", "stuck", "lobbies_left", "http_5xx",
         "tracebacks_outside_faults",
         "pages_differ")


@pytest.mark.timeout(420)
@pytest.mark.skipif(not PG_BIN or shutil.which("redis-server") is None,
                    reason="no PostgreSQL server binaries or redis-server")
def test_a_short_chaos_soak_loses_nothing_and_strands_nobody(tmp_path):
    figures = tmp_path / "chaos.json"
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "chaos.py"), "--games", "4", "--seconds", "30",
         "--each", "1", "--seed", "ci", "--computer-delay", "0.05", "--peace-show", "0",
         "--drain", "180",
         "--json", str(figures)],
        capture_output=True, text=True, timeout=400, cwd=ROOT, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    found = json.loads(figures.read_text())
    assert found["faults"] == {kind: 1 for kind in
                               ("kill", "term", "stop", "redis", "pg-fast", "pg-immediate")}
    assert found["finished"] >= 4, found["line"]
    assert found["replay"] == found["finished"], found["line"]
    assert {k: found[k] for k in ZEROS} == dict.fromkeys(ZEROS, 0), (found["line"],
                                                                     found["sample"],
                                                                     found["offline"])
