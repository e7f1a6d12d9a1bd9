"""cardwar.obs.metrics: names, values, the endpoint, and multiprocess mode."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families
from starlette.applications import Starlette
from starlette.routing import Route
from starlette.testclient import TestClient

from cardwar.obs import metrics

ROOT = Path(__file__).resolve().parents[2]
NAMES = {
    "cardwar_games_in_progress": "gauge",
    "cardwar_open_connections": "gauge",
    "cardwar_battles": "counter",
    "cardwar_cards_put_down": "counter",
    "cardwar_flip_to_result_seconds": "histogram",
}


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of an exposition, keyed by (name, sorted labels)."""
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(name: str, **labels: str) -> float:
    got = metrics.REGISTRY.get_sample_value(name, labels)
    return 0.0 if got is None else got


# The in-process tests read this process's registry: single-process mode only.
in_process = pytest.mark.skipif(
    metrics.MULTIPROCESS, reason="PROMETHEUS_MULTIPROC_DIR is set for the test run"
)


@in_process
def test_every_metric_is_in_the_exposition_with_its_type() -> None:
    body, content_type = metrics.metrics_response()
    assert content_type.startswith("text/plain")
    families = {f.name: f.type for f in text_string_to_metric_families(body.decode())}
    for name, kind in NAMES.items():
        assert families.get(name) == kind, name
    text = body.decode()
    assert 'cardwar_battles_total{variant="peace"}' in text
    assert 'cardwar_battles_total{variant="war"}' in text
    # Beggar-my-neighbour's step is a card put down, not a battle
    assert 'cardwar_cards_put_down_total{variant="beggar"}' in text
    assert 'cardwar_battles_total{variant="beggar"}' not in text
    assert 'cardwar_flip_to_result_seconds_bucket{le="0.001"}' in text
    assert 'cardwar_flip_to_result_seconds_bucket{le="2.0"}' in text
    assert "process_resident_memory_bytes" in text or sys.platform != "linux"


def test_buckets_span_1ms_to_2s() -> None:
    assert metrics.BUCKETS[0] == 0.001
    assert metrics.BUCKETS[-1] == 2.0
    assert list(metrics.BUCKETS) == sorted(metrics.BUCKETS)
    assert 0.1 in metrics.BUCKETS  # the p99 target is a bucket edge


@in_process
def test_battle_played_counts_and_observes() -> None:
    battles = value("cardwar_battles_total", variant="war")
    count = value("cardwar_flip_to_result_seconds_count")
    total = value("cardwar_flip_to_result_seconds_sum")
    under_10ms = value("cardwar_flip_to_result_seconds_bucket", le="0.01")
    under_100ms = value("cardwar_flip_to_result_seconds_bucket", le="0.1")

    metrics.battle_played("war", 0.004)
    metrics.battle_played("war", 0.08)
    metrics.battle_played("war")  # a computer seat's battle: no latency

    assert value("cardwar_battles_total", variant="war") == battles + 3
    assert value("cardwar_flip_to_result_seconds_count") == count + 2
    assert value("cardwar_flip_to_result_seconds_sum") == pytest.approx(total + 0.084)
    assert value("cardwar_flip_to_result_seconds_bucket", le="0.01") == under_10ms + 1
    assert value("cardwar_flip_to_result_seconds_bucket", le="0.1") == under_100ms + 2


@pytest.mark.parametrize(
    ("variant", "latency"), [("", 0.1), ("peace", -0.001), ("peace", float("nan"))]
)
def test_battle_played_rejects_bad_input(variant: str, latency: float) -> None:
    with pytest.raises(ValueError, match=r"variant must be|latency_s must be"):
        metrics.battle_played(variant, latency)


@in_process
def test_connections_and_games_gauges() -> None:
    before = value("cardwar_open_connections")
    metrics.connection_opened()
    metrics.connection_opened()
    metrics.connection_closed()
    assert value("cardwar_open_connections") == before + 1
    metrics.connection_closed()
    assert value("cardwar_open_connections") == before

    metrics.set_games_in_progress(7)
    assert value("cardwar_games_in_progress") == 7
    metrics.set_games_in_progress(0)
    assert value("cardwar_games_in_progress") == 0
    with pytest.raises(ValueError, match="cannot be negative"):
        metrics.set_games_in_progress(-1)
    metrics.process_exiting()  # a no-op in single-process mode


@in_process
def test_metrics_endpoint_in_a_starlette_app() -> None:
    from cardwar.web.metrics import metrics_endpoint

    app = Starlette(routes=[Route("/metrics", metrics_endpoint)])
    with TestClient(app) as client:
        response = client.get("/metrics")
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/plain; version=")
        assert response.headers["cache-control"] == "no-store"
        assert "cardwar_open_connections" in response.text

        om = client.get("/metrics", headers={"Accept": "application/openmetrics-text"})
        assert om.status_code == 200
        assert om.headers["content-type"].startswith("application/openmetrics-text")
        assert om.text.rstrip().endswith("# EOF")


# --- multiprocess mode: every process is a fresh interpreter, as in production ---

WORKER = textwrap.dedent(
    """
    import json, sys
    from cardwar.obs import metrics
    assert metrics.MULTIPROCESS
    action = json.loads(sys.argv[1])
    for _ in range(action["connections"]):
        metrics.connection_opened()
    for variant, latency in action["battles"]:
        metrics.battle_played(variant, latency)
    if action.get("games") is not None:
        metrics.set_games_in_progress(action["games"])
    print("ready", flush=True)
    if action.get("wait"):
        sys.stdin.readline()
    if action.get("clean_exit"):
        metrics.process_exiting()
    """
)

READER = textwrap.dedent(
    """
    from cardwar.obs import metrics
    body, content_type = metrics.metrics_response()
    print(body.decode())
    """
)


def run_python(code: str, env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code, *args], env=env, cwd=ROOT,
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture
def multiproc_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k.lower() != "prometheus_multiproc_dir"}
    env["PROMETHEUS_MULTIPROC_DIR"] = str(tmp_path)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


@pytest.mark.timeout(120)
def test_multiprocess_dir_is_honoured_and_aggregated(
    multiproc_env: dict[str, str], tmp_path: Path
) -> None:
    # Process A stays alive with 2 connections; B has 1 and dies without cleaning up.
    # the with closes its pipes and waits for it, whatever happens
    with subprocess.Popen(
        [sys.executable, "-c", WORKER, json.dumps({
            "connections": 2, "battles": [["peace", 0.02]], "games": 5,
            "wait": True, "clean_exit": True,
        })],
        env=multiproc_env, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    ) as alive:
        try:
            assert alive.stdout is not None
            assert alive.stdout.readline().strip() == "ready"
            run_python(WORKER, multiproc_env, json.dumps({
                "connections": 1, "battles": [["war", 0.003], ["war", None]], "games": 6,
            }))
            assert list(tmp_path.glob("*.db")), "no metric files were written to the directory"

            got = samples(run_python(READER, multiproc_env))
            assert got[("cardwar_battles_total", (("variant", "peace"),))] == 1
            assert got[("cardwar_battles_total", (("variant", "war"),))] == 2
            assert got[("cardwar_flip_to_result_seconds_count", ())] == 2
            assert got[("cardwar_flip_to_result_seconds_bucket", (("le", "0.005"),))] == 1
            # B's live gauges went with B (its files were cleaned up): only A's count.
            assert got[("cardwar_open_connections", ())] == 2
            assert got[("cardwar_games_in_progress", ())] == 5

            alive.stdin.write("\n")  # type: ignore[union-attr]
            alive.stdin.flush()  # type: ignore[union-attr]
            assert alive.wait(timeout=30) == 0
            got = samples(run_python(READER, multiproc_env))
            assert got.get(("cardwar_open_connections", ()), 0) == 0
            assert got[("cardwar_battles_total", (("variant", "war"),))] == 2  # counters stay
        finally:
            if alive.poll() is None:
                alive.kill()
                alive.wait(timeout=10)


@pytest.mark.timeout(60)
def test_missing_multiprocess_dir_is_an_error(
    multiproc_env: dict[str, str], tmp_path: Path
) -> None:
    multiproc_env["PROMETHEUS_MULTIPROC_DIR"] = str(tmp_path / "missing")
    done = subprocess.run(
        [sys.executable, "-c", "import cardwar.obs.metrics"], env=multiproc_env, cwd=ROOT,
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode != 0
    assert "PROMETHEUS_MULTIPROC_DIR" in done.stderr
    assert "missing" in done.stderr
