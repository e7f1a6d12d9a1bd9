"""The real ``cardwar`` console script, run through subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cardwar.engine import (
    PEACE,
    WAR,
    BeggarSetup,
    Setup,
    beggar_json,
    cards_text,
    deal,
    game_json,
    parse_cards,
    seating,
    shuffled_deck,
)

ROOT = Path(__file__).resolve().parents[1]
_SCRIPT = Path(sys.executable).parent / "cardwar"
CARDWAR = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "cardwar.cli"]

GAME_KEYS = {
    "variant": str,
    "players": int,
    "seed": (str, type(None)),
    "face_down": int,
    "outcome": str,
    "winner": (int, type(None)),
    "reason": str,
    "battles": int,
    "final_counts": list,
    "eliminated": dict,
    "seating": list,
}

BEGGAR_KEYS = {
    "variant": str,
    "players": int,
    "seed": (str, type(None)),
    "outcome": str,
    "winner": (int, type(None)),
    "reason": str,
    "tricks": int,
    "cards_played": int,
    "final_counts": list,
    "seating": list,
    "cycle": (dict, type(None)),
}
NESSLER = "---AJ--Q---------QAKQJJ-QK / -----A----KJ-K--------A---"
CASELLA = "---K---Q-KQAJ-----AAJ--J-- / ----------Q----KQ-J-----KA"


def run(*args: str | bytes) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CARDWAR, *args], capture_output=True, text=True, cwd=ROOT, timeout=120
    )


def play_json(*args: str) -> dict[str, Any]:
    proc = run("play", *args, "--json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert len(proc.stdout.splitlines()) == 1  # one JSON object on one line
    record: dict[str, Any] = json.loads(proc.stdout)
    return record


def check_record(record: dict[str, Any], *, log: bool = False) -> None:
    """The ``cardwar play --json`` contract: keys and their types."""
    expected = set(GAME_KEYS) | ({"log"} if log else set())
    assert set(record) == expected
    for key, types in GAME_KEYS.items():
        assert isinstance(record[key], types), key
        assert not isinstance(record[key], bool), key
    players = record["players"]
    assert record["variant"] in {"peace", "war"}
    assert record["outcome"] in {"win", "draw"}
    assert record["reason"] in {"all_cards", "battle_limit", "unresolvable", "cycle"}
    if record["outcome"] == "win":
        assert record["reason"] == "all_cards"
        assert isinstance(record["winner"], int)
        assert 0 <= record["winner"] < players
    else:
        assert record["winner"] is None
        assert record["reason"] != "all_cards"
    assert len(record["final_counts"]) == players
    assert all(type(n) is int and n >= 0 for n in record["final_counts"])
    assert sorted(record["seating"]) == list(range(players))
    if record["seed"] is None:
        assert record["seating"] == list(range(players))
    for seat, battle in record["eliminated"].items():
        assert seat.isdigit()
        assert 0 <= int(seat) < players
        assert type(battle) is int
        assert 1 <= battle <= record["battles"]
    if log:
        assert isinstance(record["log"], list)
        assert len(record["log"]) == record["battles"]
        assert [b["battle"] for b in record["log"]] == list(range(1, record["battles"] + 1))
        assert record["log"][-1]["reason"] == record["reason"]


@pytest.mark.parametrize("variant", ["peace", "war"])
def test_play_seed_json_contract(variant: str) -> None:
    record = play_json("--variant", variant, "--seed", "peace")
    check_record(record)
    assert record["variant"] == variant
    assert record["players"] == 2
    assert record["seed"] == "peace"
    assert record["face_down"] == (5 if variant == "peace" else 3)
    v = PEACE if variant == "peace" else WAR
    assert record == game_json(Setup.from_seed(v, 2, "peace"))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_play_seed_reports_the_seating(players: int) -> None:
    record = play_json("--seed", "peace", "--players", str(players))
    assert record["seating"] == seating("peace", players)
    assert record["seating"] == {2: [0, 1], 3: [1, 2, 0], 4: [3, 0, 2, 1]}[players]
    war = play_json("--variant", "war", "--seed", "war", "--players", str(players), "--log")
    check_record(war, log=True)
    assert war["seating"] == seating("war", players)
    proc = run("play", "--variant", "war", "--seed", "war", "--players", "4")
    assert ("Seating drawn from the seed: seat 0 is lobby position 3, seat 1 is lobby "
            "position 2, seat 2 is lobby position 1, seat 3 is lobby position 0") in proc.stdout
    # The play is the same as the deck dealt by hand: table seats, from seat 0.
    deck = play_json("--deck", cards_text(shuffled_deck("peace")), "--players", str(players))
    assert deck["seating"] == list(range(players))
    assert {k: v for k, v in deck.items() if k not in ("seed", "seating")} == {
        k: v for k, v in record.items() if k not in ("seed", "seating")}
    assert "Seating" not in run("play", "--hands", "2C / 3C").stdout


def test_play_log_adds_the_battles() -> None:
    plain = play_json("--seed", "peace", "--players", "3")
    logged = play_json("--seed", "peace", "--players", "3", "--log")
    check_record(logged, log=True)
    assert {k: v for k, v in logged.items() if k != "log"} == plain
    first = logged["log"][0]
    deck = shuffled_deck("peace")
    assert first["face_up"] == [cards_text([deck[s]]) for s in range(3)]


def test_play_war_face_down_one() -> None:
    record = play_json("--variant", "war", "--seed", "w", "--face-down", "1", "--players", "4")
    check_record(record)
    assert record["face_down"] == 1
    assert record["players"] == 4
    assert record == game_json(Setup.from_seed(WAR, 4, "w", 1))


def test_hands_imply_players_and_seed_is_null() -> None:
    record = play_json("--hands", "2C 5D / 9H 3S / 4C")
    check_record(record)
    assert record["players"] == 3
    assert record["seed"] is None
    assert len(record["final_counts"]) == 3
    assert sum(record["final_counts"]) == 5
    two = play_json("--hands", "2C 5D / 9H 3S", "--players", "2", "--log")
    check_record(two, log=True)
    assert (two["outcome"], two["reason"], two["battles"]) == ("draw", "battle_limit", 1000)
    assert two["log"][0]["face_up"] == ["2C", "9H"]


def test_deck_is_dealt_per_section_3() -> None:
    deck = [*reversed(shuffled_deck("deck-test"))]
    text = cards_text(deck)
    record = play_json("--deck", text.lower(), "--players", "3", "--log")
    check_record(record, log=True)
    assert record["players"] == 3
    assert record["seed"] is None
    assert record["log"][0]["face_up"] == [cards_text([deck[s]]) for s in range(3)]
    if record["reason"] != "unresolvable":
        assert sum(record["final_counts"]) == 51  # one card set aside
    # Dealing by hand one card at a time round the table gives the same game.
    piles = [deck[s:51:3] for s in range(3)]
    assert [len(p) for p in piles] == [17, 17, 17]
    by_hand = play_json("--hands", " / ".join(cards_text(p) for p in piles), "--log")
    assert by_hand == record
    setup = Setup.from_deck(PEACE, 3, parse_cards(text))
    assert record == game_json(setup, log=True)


def test_short_deck_and_ten_notation() -> None:
    record = play_json("--deck", "10C 2D 3H 10S 4C", "--log")
    check_record(record, log=True)
    assert record["players"] == 2
    # 5 cards, 2 players: 2 each, 4C set aside. TC vs 2D: 2D wins (Peace).
    assert record["log"][0]["face_up"] == ["TC", "2D"]
    assert record["log"][0]["winner"] == 1
    assert sum(record["final_counts"]) == 4


def test_play_text_output() -> None:
    proc = run("play", "--hands", "7C 2C 3C 4C 5C 6C 8C / 7D 2D 3D 4D 5D 6D 9D", "--log")
    assert proc.returncode == 0, proc.stderr
    assert "Seat 0 wins after 1 battle: " in proc.stdout  # singular
    assert "seat 1 went out in battle 1" in proc.stdout
    assert "1 peace(s)" in proc.stdout


def test_simulate_json() -> None:
    proc = run("simulate", "--games", "40", "--players", "3", "--seed", "s")
    assert proc.returncode == 0, proc.stderr
    stats = json.loads(proc.stdout)
    for key, types in {
        "games": int,
        "games_per_s": (int, float),
        "mean_battles": (int, float),
        "median_battles": (int, float),
        "reasons": dict,
        "wins_by_seat": list,
    }.items():
        assert isinstance(stats[key], types), key
    assert stats["games"] == 40
    assert stats["games_per_s"] > 0
    assert sum(stats["reasons"].values()) == 40
    assert set(stats["reasons"]) == {"all_cards", "battle_limit", "unresolvable", "cycle"}
    assert len(stats["wins_by_seat"]) == 3
    assert sum(stats["wins_by_seat"]) == stats["reasons"]["all_cards"]
    assert 1 <= stats["median_battles"] <= 1000
    assert 1 <= stats["mean_battles"] <= 1000
    # Same seed, same statistics (timing aside).
    again = json.loads(run("simulate", "--games", "40", "--players", "3", "--seed", "s").stdout)
    for key in ("games", "mean_battles", "median_battles", "reasons", "wins_by_seat"):
        assert again[key] == stats[key]


def test_simulate_over_two_processes_gives_the_same_games() -> None:
    """12,000 games of 3-player War (three chunks) on one process and on two."""
    args = ("simulate", "--variant", "war", "--players", "3", "--games", "12000", "--seed", "p")
    one = json.loads(run(*args).stdout)
    two = json.loads(run(*args, "--processes", "2").stdout)
    for key in ("seconds", "games_per_s"):
        one.pop(key), two.pop(key)
    assert one == two
    assert sum(one["wins_by_lobby"]) == sum(one["wins_by_seat"]) == one["reasons"]["all_cards"]
    assert one["reasons"]["cycle"] > 0


def test_simulate_war_face_down_one() -> None:
    proc = run("simulate", "--games", "10", "--variant", "war", "--face-down", "1")
    assert proc.returncode == 0, proc.stderr
    stats = json.loads(proc.stdout)
    assert stats["games"] == 10
    assert len(stats["wins_by_seat"]) == 2


def test_shuffle_prints_commitment_and_deck() -> None:
    proc = run("shuffle", "--seed", "peace")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "commitment c2e10c20bf46daf0ba03f725218b012544a3d0d3b37334eeb1d4d81e5406e478",
        "deck 8S QS AS QH 4D 4H 5C QD 9D 4C 7H 3D JD 2D 8H 3S JC 6D 6S 4S JS AC 5D TS 2C KD "
        "7S 7C 2H 8C TC 3H 9S 2S QC 9C 3C 7D 8D KS TH AD 6H 9H TD AH 6C 5S 5H KC KH JH",
    ]


def check_beggar(record: dict[str, Any], *, log: bool = False) -> None:
    """The ``cardwar play --variant beggar --json`` contract: keys and their types."""
    assert set(record) == set(BEGGAR_KEYS) | ({"log"} if log else set())
    for key, types in BEGGAR_KEYS.items():
        assert isinstance(record[key], types), key
        assert not isinstance(record[key], bool), key
    assert (record["variant"], record["players"]) == ("beggar", 2)
    total = sum(record["final_counts"])
    if record["outcome"] == "win":
        assert record["reason"] == "all_cards"
        assert record["cycle"] is None
        assert record["final_counts"][record["winner"]] == total
    else:
        assert (record["outcome"], record["reason"], record["winner"]) == ("draw", "cycle", None)
        cycle = record["cycle"]
        assert set(cycle) == {"start_trick", "start_cards", "length_tricks", "length_cards"}
        assert cycle["start_trick"] + cycle["length_tricks"] == record["tricks"]
        assert cycle["start_cards"] + cycle["length_cards"] == record["cards_played"]
    assert sorted(record["seating"]) == [0, 1]
    if log:
        tricks = record["log"]
        assert [t["trick"] for t in tricks] == list(range(1, record["tricks"] + 1))
        assert sum(len(t["cards"]) for t in tricks) == record["cards_played"]
        assert all(len(t["seats"]) == len(t["cards"]) for t in tricks)
        assert tricks[-1]["cards_played"] == record["cards_played"]
        assert tricks[-1]["counts"] == record["final_counts"]
        assert (tricks[-1]["outcome"], tricks[-1]["reason"]) == (record["outcome"],
                                                                 record["reason"])
        assert all("outcome" not in t for t in tricks[:-1])


def test_beggar_seed_json_contract() -> None:
    record = play_json("--variant", "beggar", "--seed", "war")
    check_beggar(record)
    assert record == beggar_json(BeggarSetup.from_seed("war"))
    assert (record["outcome"], record["winner"], record["cards_played"], record["tricks"]) == (
        "win", 1, 177, 21)
    assert (record["seed"], record["seating"], record["final_counts"]) == ("war", [1, 0], [0, 52])
    logged = play_json("--variant", "beggar", "--seed", "war", "--log", "--players", "2")
    check_beggar(logged, log=True)
    assert {k: v for k, v in logged.items() if k != "log"} == record
    deck = shuffled_deck("war")
    first = logged["log"][0]
    assert (first["starter"], first["cards"][:2], first["seats"][:2]) == (
        0, cards_text(deck[:2]).split(), [0, 1])


@pytest.mark.parametrize("spaced", [True, False])
def test_beggar_published_deals(spaced: bool) -> None:
    hands = [h if spaced else h.replace(" ", "") for h in (NESSLER, CASELLA)]
    nessler = play_json("--variant", "beggar", "--hands", hands[0])
    check_beggar(nessler)
    assert (nessler["winner"], nessler["cards_played"], nessler["tricks"]) == (1, 8344, 1164)
    assert (nessler["seed"], nessler["seating"]) == (None, [0, 1])
    casella = play_json("--variant", "beggar", "--log", "--hands", hands[1])
    check_beggar(casella, log=True)
    assert (casella["reason"], casella["cards_played"], casella["tricks"]) == ("cycle", 474, 66)
    assert casella["cycle"] == {"start_trick": 4, "start_cards": 34,
                                "length_tricks": 62, "length_cards": 440}
    # Cards for the notation: plain cards 2C 3C ... in order, courts suit by suit.
    assert casella["log"][0]["cards"][:5] == ["2C", "9D", "3C", "TD", "4C"]


@pytest.mark.parametrize(
    ("hands", "winner", "cards", "tricks"),
    [
        ("JC 2C 3C / 4C JD 5C", None, 8, 3),
        ("JS / 2C 3C 4C 5C JD 6C", 1, 17, 5),
        ("QS / 2H 3H", 0, 3, 1),
        ("2C / 3C", 1, 2, 1),
        ("2C 4C / 3C", 0, 3, 1),
        ("2C 3C JC 6C / KC 5C JD 7C", None, 16, 4),
    ],
)
def test_beggar_small_examples(hands: str, winner: int | None, cards: int, tricks: int) -> None:
    record = play_json("--variant", "beggar", "--hands", hands, "--log")
    check_beggar(record, log=True)
    assert (record["winner"], record["cards_played"], record["tricks"]) == (winner, cards, tricks)
    assert sum(record["final_counts"]) == len(hands.replace("/", " ").split())


def test_beggar_hands_in_notation_of_any_length() -> None:
    short = play_json("--variant", "beggar", "--hands", "--J- / K-J-", "--log")
    check_beggar(short, log=True)
    assert short == play_json("--variant", "beggar", "--hands", "2C 3C JC 4C / KC 5C JD 6C",
                              "--log")
    assert (short["reason"], short["cards_played"], short["tricks"]) == ("cycle", 16, 4)
    first, second = (h.strip() for h in NESSLER.split("/"))
    deck = "".join(a + b for a, b in zip(first, second, strict=True))  # dealt by rule 3
    assert play_json("--variant", "beggar", "--deck", deck) == play_json(
        "--variant", "beggar", "--hands", NESSLER)


def test_beggar_deck_is_dealt_per_section_3() -> None:
    deck = [*reversed(shuffled_deck("beggar-deck"))]
    record = play_json("--variant", "beggar", "--deck", cards_text(deck), "--log")
    check_beggar(record, log=True)
    piles = deal(deck, 2)
    by_hand = play_json("--variant", "beggar", "--log",
                        "--hands", " / ".join(cards_text(p) for p in piles))
    assert by_hand == record
    short = play_json("--variant", "beggar", "--deck", "JC 2C 3C 4C JD 5C 9H")
    # 7 cards: 3 each, 9H set aside: JC 3C JD / 2C 4C 5C.
    assert short == play_json("--variant", "beggar", "--hands", "JC 3C JD / 2C 4C 5C")


def test_beggar_text_output() -> None:
    proc = run("play", "--variant", "beggar", "--seed", "war")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "Beggar-my-neighbour, 2 players, seed 'war'",
        "Seating drawn from the seed: seat 0 is lobby position 1, seat 1 is lobby position 0",
        "The second player (seat 1) wins after 177 cards and 21 tricks: holds all 52 cards",
        "Cards at the end: seat 0: 0, seat 1: 52",
    ]
    proc = run("play", "--variant", "beggar", "--hands", "2C / 3C")
    assert "The second player (seat 1) wins after 2 cards and 1 trick: " in proc.stdout
    proc = run("play", "--variant", "beggar", "--hands", CASELLA)
    assert "Draw after 474 cards and 66 tricks: the game repeats itself forever" in proc.stdout
    assert ("the position after trick 4 (34 cards) came back: a cycle of 62 tricks, 440 cards"
            in proc.stdout)
    proc = run("play", "--variant", "beggar", "--hands", "JS / 2C 3C 4C 5C JD 6C", "--log")
    assert proc.stdout.splitlines()[:5] == [
        "trick    1: seat 0 starts: JS 2C -> seat 0 takes 2",
        "trick    2: seat 0 starts: JS 3C -> seat 0 takes 2",
        "trick    3: seat 0 starts: 2C 4C JS 5C -> seat 0 takes 4",
        "trick    4: seat 0 starts: 3C JD 2C -> seat 1 takes 3",
        "trick    5: seat 1 starts: 6C 4C 3C JS JD 5C -> seat 1 takes 6",
    ]


def test_simulate_beggar() -> None:
    proc = run("simulate", "--variant", "beggar", "--games", "30", "--seed", "b")
    assert proc.returncode == 0, proc.stderr
    stats = json.loads(proc.stdout)
    for key in ("mean_cards", "median_cards", "mean_tricks", "median_tricks", "cycle_share"):
        assert isinstance(stats[key], (int, float)), key
        assert not isinstance(stats[key], bool), key
    assert (stats["variant"], stats["players"], stats["games"]) == ("beggar", 2, 30)
    assert set(stats["reasons"]) == {"all_cards", "cycle"}
    assert sum(stats["reasons"].values()) == 30 == sum(stats["wins_by_seat"]) + stats["cycles"]
    assert stats["cycle_share"] == stats["cycles"] / 30
    games = [beggar_json(BeggarSetup.from_seed(f"b/{i}")) for i in range(30)]
    cards = sorted(g["cards_played"] for g in games)
    tricks = sorted(g["tricks"] for g in games)
    assert stats["median_cards"] == (cards[14] + cards[15]) / 2
    assert stats["median_tricks"] == (tricks[14] + tricks[15]) / 2
    assert stats["mean_cards"] == round(sum(cards) / 30, 2)
    assert stats["mean_tricks"] == round(sum(tricks) / 30, 2)
    assert (stats["min_cards"], stats["max_cards"]) == (cards[0], cards[-1])
    assert stats["longest"]["cards"] == cards[-1]
    assert stats["wins_by_seat"] == [sum(g["winner"] == s for g in games) for s in (0, 1)]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["play", "--variant", "beggar", "--seed", "x", "--players", "3"], "2 players, not 3"),
        (["play", "--variant", "beggar", "--seed", "x", "--players", "1"], "not 1"),
        (["play", "--variant", "beggar", "--hands", "2C / 3C / 4C"], "not 3"),
        (["play", "--variant", "beggar", "--hands", "2C 3C"], "not 1"),
        (["play", "--variant", "beggar", "--seed", "x", "--face-down", "3"], "--face-down"),
        (["play", "--variant", "beggar", "--hands", "2C / 3C", "--face-down", "1"],
         "--face-down"),
        (["play", "--variant", "beggar", "--hands", NESSLER + "J"], "5 jacks"),
        (["play", "--variant", "beggar", "--deck", NESSLER.replace("/", "")[:-1]], "not 51"),
        (["play", "--variant", "beggar", "--deck", NESSLER.replace("/", "").replace("K", "A", 1)],
         "3 kings"),
        (["play", "--variant", "beggar", "--hands", "---AJ--Q---------QAKQJJ-QK/2C"],
         "both in notation"),
        (["play", "--variant", "beggar", "--hands", "--X/--"], "--X"),
        (["play", "--variant", "beggar", "--hands", "JS / 2C JS"], "duplicate"),
        (["play", "--variant", "beggar", "--hands", "JS / "], "empty"),
        (["play", "--variant", "beggar", "--deck", "2C"], "--deck"),
        (["play", "--variant", "beggar"], "--seed"),
        (["play", "--hands", NESSLER], "---AJ"),
        (["simulate", "--variant", "beggar", "--games", "3", "--players", "3"], "not 3"),
        (["simulate", "--variant", "beggar", "--games", "3", "--face-down", "1"], "--face-down"),
        (["simulate", "--variant", "beggar", "--games", "0"], "--games"),
    ],
)
def test_beggar_bad_input_exits_2_with_one_line(args: list[str], needle: str) -> None:
    test_bad_input_exits_2_with_one_line(args, needle)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["play", "--hands", "2C ZZ / 3C"], "ZZ"),
        (["play", "--deck", "2C 3C 1X"], "1X"),
        (["play", "--hands", "2C 5D / 9H 5d"], "5D"),
        (["play", "--deck", "2C 3C 2c"], "2C"),
        (["play", "--hands", ""], "empty"),
        (["play", "--hands", "/"], "empty"),
        (["play", "--hands", "2C / "], "empty"),
        (["play", "--hands", "2C 3C"], "1"),
        (["play", "--hands", "2C / 3C / 4C / 5C / 6C"], "5"),
        (["play", "--seed", "x", "--players", "1"], "1"),
        (["play", "--seed", "x", "--players", "5"], "5"),
        (["play", "--variant", "war", "--seed", "x", "--players", "5"], "5"),
        (["simulate", "--games", "3", "--players", "1"], "1"),
        (["simulate", "--games", "3", "--players", "5"], "5"),
        (["play", "--seed", "x", "--face-down", "1"], "1"),
        (["play", "--variant", "war", "--seed", "x", "--face-down", "2"], "2"),
        (["simulate", "--games", "3", "--face-down", "1"], "1"),
        (["play", "--seed", "x", "--deck", "2C 3C"], "--deck"),
        (["play", "--seed", "x", "--hands", "2C / 3C"], "--hands"),
        (["play", "--deck", "2C 3C", "--hands", "2C / 3C"], "--hands"),
        (["play", "--hands", "2C / 3C", "--players", "3"], "3"),
        (["play", "--deck", "2C", "--players", "2"], "--deck"),
        (["play", "--deck", ""], "--deck"),
        (["play"], "--seed"),
        (["play", "--seed", "x", "--players", "two"], "two"),
        (["play", "--variant", "chess", "--seed", "x"], "chess"),
        (["simulate", "--variant", "chess", "--games", "1"], "chess"),
        (["simulate", "--games", "0"], "--games"),
        (["simulate", "--games", "-1"], "--games"),
        (["simulate", "--games", "100000000000000000000"], "1,000,000"),
        (["simulate", "--games", "10", "--processes", "0"], "--processes"),
        (["simulate", "--games", "10", "--processes", "65"], "--processes"),
        (["simulate", "--games", "10", "--processes", "two"], "two"),
        (["simulate"], "--games"),
        (["shuffle"], "--seed"),
        (["nonsense"], "nonsense"),
        ([], "command"),
    ],
)
def test_bad_input_exits_2_with_one_line(args: list[str], needle: str) -> None:
    proc = run(*args)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("cardwar: error: ")
    assert needle.lower() in lines[0].lower()
    assert proc.stdout == ""


def test_seed_that_is_not_utf8_is_bad_input() -> None:
    # Undecodable bytes reach Python as lone surrogates, which have no UTF-8 form.
    proc = subprocess.run(
        [*CARDWAR, "shuffle", "--seed", b"\xff\xfe"], capture_output=True, cwd=ROOT, timeout=60
    )
    assert proc.returncode == 2
    assert b"Traceback" not in proc.stderr
    assert len(proc.stderr.splitlines()) == 1
    assert b"UTF-8" in proc.stderr  # a clear message, not a codec error


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["serve", "--port", "99999"], "65535"),
        (["serve", "--port", "0"], "65535"),
        (["serve", "--port", "-1"], "65535"),
        (["serve", "--port", "http"], "http"),
        (["serve", "--host", "999.1.1.1"], "999.1.1.1"),
        (["serve", "--host", "no-such-host.invalid"], "no-such-host.invalid"),
    ],
)
def test_serve_bad_host_or_port_exits_2_with_one_line(args: list[str], needle: str) -> None:
    proc = run(*args)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("cardwar: error: ")
    assert needle in lines[0]


def _free_port() -> str:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return str(s.getsockname()[1])


@pytest.mark.parametrize(
    ("database", "redis", "needle"),
    [
        ("bogus://x", None, "unsupported database 'bogus'"),
        ("not a url", None, "not a database url"),
        ("postgresql://postgres@127.0.0.1:1/test", None, "cannot use the database"),
        ("sqlite:///{tmp}/games.db", "redis://127.0.0.1:1/0", "cannot reach redis"),
        ("sqlite:///{tmp}/games.db", "redis://:s3cret@127.0.0.1:1/0", "redis://:***@127.0.0"),
        ("postgresql://bob:s3cret@127.0.0.1:1/x", None, "bob:***@127.0.0.1:1"),
        ("sqlite:///", None, "give the sqlite file"),
    ],
)
def test_serve_unusable_database_or_redis_exits_2_with_one_line(
        tmp_path: Path, database: str, redis: str | None, needle: str) -> None:
    args = ["serve", "--host", "127.0.0.1", "--port", _free_port(),
            "--database", database.format(tmp=tmp_path)]
    if redis:
        args += ["--redis", redis]
    proc = run(*args)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("cardwar: error: ")
    assert needle in lines[0].lower()
    assert "s3cret" not in proc.stderr


def test_output_piped_into_a_reader_that_stops_early_is_no_traceback() -> None:
    proc = subprocess.run(
        f"{' '.join(CARDWAR)} play --seed x --log | head -1", shell=True, cwd=ROOT,
        capture_output=True, text=True, timeout=60)
    assert proc.stdout.startswith("battle    1:")
    assert proc.stdout.count("\n") == 1
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "BrokenPipe" not in proc.stderr, proc.stderr


def test_output_that_cannot_be_written_is_one_line() -> None:
    with open("/dev/full", "w") as full:
        proc = subprocess.run([*CARDWAR, "play", "--seed", "x", "--log"], cwd=ROOT,
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.splitlines() == ["cardwar: error: cannot write the output: "
                                        "No space left on device"]


def test_serve_port_in_use_exits_2_with_one_line() -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        proc = run("serve", "--host", "127.0.0.1", "--port", str(port))
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("cardwar: error: cannot listen on 127.0.0.1:")


def test_plural_and_player_list_wording() -> None:
    proc = run("play", "--deck", "2C", "--players", "2")
    assert "has 1 card," in proc.stderr
    proc = run("play", "--seed", "x", "--players", "5")
    assert "2, 3 or 4 players" in proc.stderr


def test_serve_closes_a_websocket_message_too_big_with_1009(tmp_path: Path) -> None:
    """`cardwar serve` caps WebSocket messages (uvicorn's default is 16 MB)."""
    import asyncio
    import os
    import socket
    import time
    import urllib.error
    import urllib.parse
    import urllib.request

    import websockets
    from websockets.exceptions import ConnectionClosed

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    db = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    env = dict(os.environ)
    env.pop("CARDWAR_TESTING_STACKED_DECK", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardwar.cli", "serve", "--port", str(port), "--database", db],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 90  # a bound: a loaded CI machine took over 30 s
        while True:
            try:
                urllib.request.urlopen(f"{base}/healthz", timeout=1)
                break
            except OSError:
                assert proc.poll() is None, "cardwar serve exited"
                assert time.monotonic() < deadline, "cardwar serve did not start"
                time.sleep(0.1)

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args: Any, **kwargs: Any) -> None:
                return None

        form = urllib.parse.urlencode({"variant": "peace", "players": "2", "seat1": "friend",
                                       "nickname": "Ann"}).encode()
        request = urllib.request.Request(f"{base}/en/play", data=form,
                                         headers={"Origin": base})
        with pytest.raises(urllib.error.HTTPError) as redirect:  # the start form redirects
            urllib.request.build_opener(NoRedirect).open(request, timeout=10)
        assert redirect.value.code == 303
        gid = redirect.value.headers["location"].rsplit("/", 1)[1]

        async def send_big() -> int | None:
            async with websockets.connect(f"ws://127.0.0.1:{port}/ws/g/{gid}",
                                          origin=base, max_size=None) as ws:  # type: ignore[arg-type]
                await ws.recv()  # the state: the connection is accepted
                await ws.send("x" * 100_000)
                try:
                    while True:
                        await asyncio.wait_for(ws.recv(), timeout=10)
                except ConnectionClosed as closed:
                    return closed.rcvd.code if closed.rcvd else None
            return None

        assert asyncio.run(send_big()) == 1009
    finally:
        proc.kill()
        proc.wait(timeout=10)
