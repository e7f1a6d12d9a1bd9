"""``cardwar play`` and ``simulate`` for the slap games (RULES.md 11), in process
(:func:`cardwar.cli.main`), and the console script once."""

from __future__ import annotations

import json
import subprocess
from collections import Counter
from typing import Any

import pytest

from cardwar.cli import main
from tests.test_cli import CARDWAR, ROOT

SLAP_KEYS = {
    "variant": str, "players": int, "seed": (str, type(None)), "options": dict,
    "outcome": str, "winner": (int, type(None)), "reason": str, "cards_played": int,
    "tricks": int, "slaps": int, "burned": int, "final_counts": list, "out": dict,
    "seating": list, "skills": (list, type(None)), "decided_slaps": str,
}


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def play_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    status, out, err = cli(capsys, "play", *args, "--json")
    assert (status, err) == (0, ""), err
    assert len(out.splitlines()) == 1
    record: dict[str, Any] = json.loads(out)
    assert set(record) == set(SLAP_KEYS) | ({"log"} if "--log" in args else set())
    for key, types in SLAP_KEYS.items():
        assert isinstance(record[key], types), key
        assert not isinstance(record[key], bool), key
    return record


# RULES.md 11.9, as the command line plays it: (arguments, winner, cards, tricks,
# slaps, burned)
EXAMPLES = [
    (["--hands", "KC 2C 3C / 4D 5D 6D 7D"], 0, 8, 2, 0, 0),
    (["--hands", "9C 9H 2C / QD 3D 4D", "--slaps", "3:1"], 1, 8, 1, 1, 0),
    (["--hands", "9C 9H 2C / QD 3D 4D", "--slaps", "3:1", "--no-sandwich"], 1, 4, 1, 0, 1),
    (["--hands", "2C 3C 4C / 5D 6D 7D", "--slaps", "2:0"], 1, 5, 1, 0, 1),
    (["--variant", "slapjack", "--hands", "4C JD 8C / 9D 2S 3S", "--slaps", "3:1,4:0,8:0"],
     0, 14, 1, 2, 1),
    (["--players", "3", "--hands", "2C / 2D / 5H", "--slaps", "2:2,2:0"], 2, 2, 0, 1, 0),
]


@pytest.mark.parametrize(("args", "winner", "cards", "tricks", "slaps", "burned"), EXAMPLES)
def test_rules_11_9_through_the_command_line(
        capsys: pytest.CaptureFixture[str], args: list[str], winner: int, cards: int,
        tricks: int, slaps: int, burned: int) -> None:
    variant = [] if "--variant" in args else ["--variant", "ers"]
    record = play_json(capsys, *variant, *args)
    assert (record["outcome"], record["reason"], record["winner"]) == ("win", "all_cards",
                                                                       winner)
    assert (record["cards_played"], record["tricks"], record["slaps"],
            record["burned"]) == (cards, tricks, slaps, burned)
    assert record["seed"] is None
    assert record["seating"] == list(range(record["players"]))
    assert sum(record["final_counts"]) == record["final_counts"][winner]
    assert set(record["out"]) == {str(s) for s in range(record["players"]) if s != winner}


def test_the_options_and_the_slaps_that_counted_are_in_the_record(
        capsys: pytest.CaptureFixture[str]) -> None:
    record = play_json(capsys, "--variant", "ers", "--players", "3", "--hands",
                       "2C / 2D / 5H", "--slaps", "2:2,2:0", "--marriage", "--burn", "2")
    assert record["options"] == {"sandwich": True, "marriage": True, "top_bottom": False,
                                 "burn": 2, "slap_in": True, "card_limit": 10_000}
    assert record["decided_slaps"] == "2:2"  # the too-late one changed nothing
    assert record["out"] == {"0": 2, "1": 2}
    assert record["skills"] is None


def test_the_log_has_every_event(capsys: pytest.CaptureFixture[str]) -> None:
    record = play_json(capsys, "--variant", "slapjack", "--hands", "4C JD 8C / 9D 2S 3S",
                       "--slaps", "3:1,4:0,8:0", "--log")
    kinds = Counter(e["event"] for e in record["log"])
    assert kinds == {"card": 14, "slap": 3, "taken": 3, "burned": 1, "window": 1, "out": 1,
                     "end": 1}
    assert record["log"][2] == {"event": "card", "number": 3, "seat": 0, "card": "JD",
                                "paid_for": None, "pattern": "jack", "owed": 0,
                                "owed_for": None, "to_move": 1}
    assert record["log"][7] == {"event": "burned", "seat": 0, "cards": ["8C"], "to_seat": 1}


def test_text_output_tells_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = cli(capsys, "play", "--variant", "ers", "--hands",
                         "9C 9H 2C / QD 3D 4D", "--slaps", "3:1", "--no-sandwich", "--log")
    assert status == 0
    assert out.splitlines() == [
        "card     1: seat 0 puts down 9C",
        "card     2: seat 1 puts down QD: seat 0 owes 2",
        "card     3: seat 0 pays 9H for QD, 1 more",
        "           seat 1 slaps pile 3: wrong",
        "           seat 1 burns 3D under the pile",
        "card     4: seat 0 pays 2C for QD",
        "           paid with plain cards: seat 1 takes the pile after the slap window",
        "           seat 1 takes 5 cards (trick 1)",
        "           seat 0 is out",
        "Egyptian Ratscrew, 2 players",
        "Slapped: doubles; a wrong slap burns 1 card; slapping in allowed",
        "  seat 0 went out after card 4",
        "Seat 1 wins after 4 cards, 1 trick, 0 slaps, 1 burned: the last player in",
        "Cards at the end: seat 0: 0, seat 1: 6",
        "Slaps that counted (--slaps): 3:1",
    ]


def test_a_seeded_game_is_played_by_the_computers_and_replays_from_its_slaps(
        capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--variant", "ers", "--players", "3", "--seed", "peace"]
    record = play_json(capsys, *args, "--skill", "sharp,normal,relaxed")
    assert record["seating"] == [1, 2, 0]  # RULES.md 9's example
    assert record["skills"] == ["normal", "relaxed", "sharp"]  # lobby skills, seated
    assert sum(record["final_counts"]) == 51
    assert record["slaps"] > 0
    assert play_json(capsys, *args, "--skill", "sharp,normal,relaxed") == record
    replayed = play_json(capsys, *args, "--slaps", record["decided_slaps"])
    for key in ("outcome", "winner", "cards_played", "tricks", "slaps", "burned",
                "final_counts", "out", "decided_slaps"):
        assert replayed[key] == record[key], key
    assert play_json(capsys, *args)["skills"] == ["normal"] * 3
    nobody = play_json(capsys, *args, "--slaps", "")
    assert (nobody["slaps"], nobody["burned"], nobody["skills"]) == (0, 0, None)


def test_simulate_reports_lengths_and_win_shares_by_skill(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = cli(capsys, "simulate", "--variant", "ers", "--games", "40",
                         "--skill", "sharp,normal", "--seed", "t")
    assert status == 0
    stats = json.loads(out)
    assert (stats["variant"], stats["games"], stats["skills"]) == ("ers", 40, ["sharp",
                                                                              "normal"])
    assert sum(stats["wins_by_seat"]) == sum(stats["wins_by_lobby"]) == 40 - stats[
        "reasons"]["card_limit"]
    assert stats["win_share_by_skill"]["sharp"] == stats["wins_by_lobby"][0] / 40
    assert stats["win_share_by_skill"]["sharp"] > stats["win_share_by_skill"]["normal"]
    assert stats["min_cards"] <= stats["median_cards"] <= stats["max_cards"]
    seed = stats["longest"]["seed"]
    longest = play_json(capsys, "--variant", "ers", "--seed", seed, "--skill", "sharp,normal")
    assert longest["cards_played"] == stats["max_cards"]
    status, out, _ = cli(capsys, "simulate", "--variant", "slapjack", "--games", "5",
                         "--players", "4", "--no-slap-in")
    assert status == 0
    assert json.loads(out)["options"] == {"slap_in": False,
                                                          "card_limit": 10_000}


@pytest.mark.parametrize(("args", "needle"), [
    (["play", "--variant", "ers", "--seed", "x", "--players", "5"], "not 5"),
    (["play", "--variant", "ers", "--hands", "2C"], "not 1"),
    (["play", "--variant", "ers", "--hands", "2C / 3C", "--slaps", "1:2"], "no seat 2"),
    (["play", "--variant", "ers", "--hands", "2C / 3C", "--slaps", "1-0"], "STEP:SEAT"),
    (["play", "--variant", "ers", "--hands", "2C / 3C", "--slaps", "9:0"], "ended after 2"),
    (["play", "--variant", "ers", "--hands", "2C / 3C", "--skill", "sharp"], "--seed"),
    (["play", "--variant", "ers", "--seed", "x", "--skill", "sharp", "--slaps", "1:0"],
     "--skill"),
    (["play", "--variant", "ers", "--seed", "x", "--skill", "quick"], "quick"),
    (["play", "--variant", "ers", "--seed", "x", "--skill", "sharp,normal,sharp"], "3 skills"),
    (["play", "--variant", "ers", "--seed", "x", "--burn", "3"], "1 or 2"),
    (["play", "--variant", "ers", "--seed", "x", "--face-down", "1"], "--face-down"),
    (["play", "--variant", "slapjack", "--seed", "x", "--burn", "2"], "--burn"),
    (["play", "--variant", "slapjack", "--seed", "x", "--marriage"], "only a jack"),
    (["play", "--variant", "ers", "--deck", "2C"], "--deck"),
    (["play", "--variant", "ers"], "--seed"),
    (["play", "--variant", "peace", "--seed", "x", "--slaps", "1:0"], "--slaps"),
    (["play", "--variant", "beggar", "--seed", "x", "--no-sandwich"], "--no-sandwich"),
    (["simulate", "--variant", "war", "--games", "2", "--skill", "sharp"], "--skill"),
    (["simulate", "--variant", "ers", "--games", "2", "--players", "5"], "not 5"),
    (["simulate", "--variant", "ers", "--games", "2", "--skill", "a,b"], "unknown skill"),
])
def test_bad_input_exits_2_with_one_line(capsys: pytest.CaptureFixture[str],
                                         args: list[str], needle: str) -> None:
    status, out, err = cli(capsys, *args)
    assert (status, out) == (2, "")
    assert len(err.splitlines()) == 1, err
    assert err.startswith("cardwar: error: "), err
    assert needle in err


def test_the_console_script_plays_an_example() -> None:
    proc = subprocess.run([*CARDWAR, "play", "--variant", "slapjack", "--hands",
                           "4C JD 8C / 9D 2S 3S", "--slaps", "3:1,4:0,8:0", "--json"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    record = json.loads(proc.stdout)
    assert (record["winner"], record["cards_played"], record["slaps"]) == (0, 14, 2)
