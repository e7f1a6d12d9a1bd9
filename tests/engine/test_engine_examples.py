"""RULES.md sections 8 (worked examples) and 9 (the seed ``peace``), checked three ways.

Each example is played with the step API (:meth:`Game.play_battle`, checking
the structured :class:`BattleResult`), with :func:`play_fast`, and through the
real command line (``cardwar play --hands ... --json``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cardwar.engine import (
    PEACE,
    WAR,
    BattleResult,
    Card,
    Game,
    Outcome,
    Reason,
    Setup,
    battle_json,
    cards_text,
    commitment,
    game_json,
    parse_card,
    parse_cards,
    parse_hands,
    play_fast,
    shuffled_deck,
    summarize,
)

CLI = [sys.executable, "-m", "cardwar.cli"]
ROOT = Path(__file__).resolve().parents[2]


def c(text: str) -> Card:
    return parse_card(text)


def cs(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def pile_text(game: Game) -> list[str]:
    return [cards_text(p) for p in game.piles]


def cli_json(*args: str) -> dict[str, object]:
    proc = subprocess.run(
        [*CLI, "play", *args, "--json"], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    out: dict[str, object] = json.loads(proc.stdout)
    return out


def check_fast_and_cli(
    variant_name: str,
    hands: str,
    *,
    outcome: str,
    reason: str,
    winner: int | None,
    battles: int,
    final_counts: list[int],
    eliminated: dict[str, int],
) -> None:
    variant = PEACE if variant_name == "peace" else WAR
    s = play_fast(variant, parse_hands(hands))
    assert s.outcome == outcome
    assert s.reason == reason
    assert s.winner == winner
    assert s.battles == battles
    assert list(s.final_counts) == final_counts
    assert {str(k): v for k, v in s.eliminated.items()} == eliminated
    for extra in ([], ["--log"]):
        record = cli_json("--variant", variant_name, "--hands", hands, *extra)
        assert record["outcome"] == outcome
        assert record["reason"] == reason
        assert record["winner"] == winner
        assert record["battles"] == battles
        assert record["final_counts"] == final_counts
        assert record["eliminated"] == eliminated
        assert record["players"] == len(final_counts)
        assert record["seed"] is None
        if extra:
            log = record["log"]
            assert isinstance(log, list)
            assert len(log) == battles
            assert log[-1]["outcome"] == outcome
            assert log[-1]["reason"] == reason


# --- Example 1 -------------------------------------------------------------


def test_example1_step_piles_and_battle_limit() -> None:
    game = Game(PEACE, parse_hands("2C 5D / 9H 3S"))
    r1 = game.play_battle()
    assert r1.number == 1
    assert r1.face_up == (c("2C"), c("9H"))
    assert r1.winning_seats == (0,)
    assert r1.peaces == ()
    assert r1.winner == 0
    assert r1.pot == 2
    assert r1.pot_cards() == [c("2C"), c("9H")]
    assert r1.out == ()
    assert r1.counts == (3, 1)
    assert r1.outcome is None
    assert r1.reason is None
    assert r1.game_winner is None
    assert pile_text(game) == ["5D 2C 9H", "3S"]

    r2 = game.play_battle()
    assert r2.number == 2
    assert r2.face_up == (c("5D"), c("3S"))
    assert r2.winner == 1
    assert r2.pot_cards() == [c("5D"), c("3S")]
    assert pile_text(game) == ["2C 9H", "5D 3S"]

    r3 = game.play_battle()
    assert r3.winner == 0
    assert pile_text(game) == ["9H 2C 5D", "3S"]
    r4 = game.play_battle()
    assert r4.number == 4
    assert r4.winner == 1
    assert pile_text(game) == ["2C 5D", "9H 3S"]  # back where it began

    results = game.play_to_end()
    assert len(results) == 996
    last = results[-1]
    assert last.number == 1000
    assert last.outcome == Outcome.DRAW
    assert last.reason == Reason.BATTLE_LIMIT
    assert last.game_winner is None
    assert game.battles == 1000
    assert game.counts() == (2, 2)
    assert game.eliminated == {}
    assert all(r.outcome is None for r in results[:-1])
    # 1000 is a multiple of 4: the piles are the deal again.
    assert pile_text(game) == ["2C 5D", "9H 3S"]


def test_example1_fast_and_cli() -> None:
    check_fast_and_cli(
        "peace", "2C 5D / 9H 3S", outcome="draw", reason="battle_limit", winner=None,
        battles=1000, final_counts=[2, 2], eliminated={},
    )


# --- Example 2 -------------------------------------------------------------

EX2 = "7C 2C 3C 4C 5C 6C 8C / 7D 2D 3D 4D 5D 6D 9D"


def test_example2_step() -> None:
    game = Game(PEACE, parse_hands(EX2))
    r = game.play_battle()
    assert r.number == 1
    assert r.face_up == (c("7C"), c("7D"))
    assert r.winning_seats == (0, 1)
    assert len(r.peaces) == 1
    p = r.peaces[0]
    assert p.face_down == (cs("2C 3C 4C 5C 6C"), cs("2D 3D 4D 5D 6D"))
    assert p.face_up == (c("8C"), c("9D"))
    assert p.standing == ()
    assert p.winning_seats == (0,)
    assert r.winner == 0
    assert r.pot == 14
    assert r.pot_cards() == list(cs("7C 7D 2C 3C 4C 5C 6C 8C 2D 3D 4D 5D 6D 9D"))
    assert r.out == (1,)
    assert r.counts == (14, 0)
    assert (r.outcome, r.reason, r.game_winner) == (Outcome.WIN, Reason.ALL_CARDS, 0)
    assert game.eliminated == {1: 1}
    # Rule 6: the pot goes under the winner's pile in laying order.
    assert pile_text(game) == ["7C 7D 2C 3C 4C 5C 6C 8C 2D 3D 4D 5D 6D 9D", ""]


def test_example2_fast_and_cli() -> None:
    check_fast_and_cli(
        "peace", EX2, outcome="win", reason="all_cards", winner=0,
        battles=1, final_counts=[14, 0], eliminated={"1": 1},
    )


# --- Example 3 -------------------------------------------------------------


def test_example3_step_standing_card() -> None:
    game = Game(PEACE, parse_hands("4C / 4D 2H"))
    r = game.play_battle()
    assert r.face_up == (c("4C"), c("4D"))
    assert r.winning_seats == (0, 1)
    assert len(r.peaces) == 1
    p = r.peaces[0]
    assert p.face_down == ((), ())  # seat 0 has nothing; seat 1 lays none of one card
    assert p.face_up == (c("4C"), c("2H"))
    assert p.standing == (0,)
    assert p.winning_seats == (1,)
    assert r.winner == 1
    assert r.pot == 3
    assert r.pot_cards() == list(cs("4C 4D 2H"))  # the standing 4C is not laid twice
    assert r.out == (0,)
    assert r.counts == (0, 3)
    assert (r.outcome, r.reason, r.game_winner) == (Outcome.WIN, Reason.ALL_CARDS, 1)
    assert pile_text(game) == ["", "4C 4D 2H"]


def test_example3_fast_and_cli() -> None:
    check_fast_and_cli(
        "peace", "4C / 4D 2H", outcome="win", reason="all_cards", winner=1,
        battles=1, final_counts=[0, 3], eliminated={"0": 1},
    )


# --- Example 4 -------------------------------------------------------------


def test_example4_step_unresolvable() -> None:
    game = Game(PEACE, parse_hands("4C / 4D"))
    r = game.play_battle()
    assert r.face_up == (c("4C"), c("4D"))
    assert r.winning_seats == (0, 1)
    assert r.peaces == ()
    assert r.winner is None
    assert r.pot == 2
    assert r.out == ()
    assert r.counts == (0, 0)
    assert (r.outcome, r.reason, r.game_winner) == (Outcome.DRAW, Reason.UNRESOLVABLE, None)
    # Rule 5.7: the pot stays on the table.
    assert game.pot == list(cs("4C 4D"))
    assert game.eliminated == {}
    assert summarize(game).final_counts == (0, 0)


def test_example4_fast_and_cli() -> None:
    check_fast_and_cli(
        "peace", "4C / 4D", outcome="draw", reason="unresolvable", winner=None,
        battles=1, final_counts=[0, 0], eliminated={},
    )


# --- Example 5 -------------------------------------------------------------


def test_example5_step_lower_tie_does_not_matter() -> None:
    game = Game(PEACE, parse_hands("2C / 9H / 9S"))
    r = game.play_battle()
    assert r.face_up == (c("2C"), c("9H"), c("9S"))
    assert r.winning_seats == (0,)
    assert r.peaces == ()
    assert r.winner == 0
    assert r.pot == 3
    assert r.out == (1, 2)
    assert r.counts == (3, 0, 0)
    assert (r.outcome, r.reason, r.game_winner) == (Outcome.WIN, Reason.ALL_CARDS, 0)
    assert game.eliminated == {1: 1, 2: 1}  # out together: a shared placing


def test_example5_fast_and_cli() -> None:
    check_fast_and_cli(
        "peace", "2C / 9H / 9S", outcome="win", reason="all_cards", winner=0,
        battles=1, final_counts=[3, 0, 0], eliminated={"1": 1, "2": 1},
    )


# --- Example 6 -------------------------------------------------------------

EX6 = "3C 8C 8D 8H 8S 9C KC / 3D 7C 7D 7H 7S 9D KD / JC 2C 2D 2H 2S 9H QH"


def test_example6_step_untied_seat_wins_the_peace() -> None:
    game = Game(PEACE, parse_hands(EX6))
    r = game.play_battle()
    assert r.face_up == (c("3C"), c("3D"), c("JC"))
    assert r.winning_seats == (0, 1)
    assert len(r.peaces) == 1
    p = r.peaces[0]
    assert p.face_down == (cs("8C 8D 8H 8S 9C"), cs("7C 7D 7H 7S 9D"), cs("2C 2D 2H 2S 9H"))
    assert p.face_up == (c("KC"), c("KD"), c("QH"))
    assert p.standing == ()
    assert p.winning_seats == (2,)
    assert r.winner == 2
    assert r.pot == 21
    assert r.pot_cards() == list(
        cs("3C 3D JC 8C 8D 8H 8S 9C KC 7C 7D 7H 7S 9D KD 2C 2D 2H 2S 9H QH")
    )
    assert r.out == (0, 1)
    assert r.counts == (0, 0, 21)
    assert (r.outcome, r.reason, r.game_winner) == (Outcome.WIN, Reason.ALL_CARDS, 2)


def test_example6_fast_and_cli() -> None:
    check_fast_and_cli(
        "peace", EX6, outcome="win", reason="all_cards", winner=2,
        battles=1, final_counts=[0, 0, 21], eliminated={"0": 1, "1": 1},
    )


# --- Example 7 -------------------------------------------------------------

EX7 = "5C 2C 2D 2H AC / 5D 3C 3D 3H KC"


def test_example7_step_war() -> None:
    game = Game(WAR, parse_hands(EX7))
    assert game.face_down == 3
    r = game.play_battle()
    assert r.face_up == (c("5C"), c("5D"))
    assert r.winning_seats == (0, 1)
    assert len(r.peaces) == 1
    p = r.peaces[0]
    assert p.face_down == (cs("2C 2D 2H"), cs("3C 3D 3H"))
    assert p.face_up == (c("AC"), c("KC"))
    assert p.standing == ()
    assert p.winning_seats == (0,)
    assert r.winner == 0
    assert r.pot == 10
    assert r.out == (1,)
    assert r.counts == (10, 0)
    assert (r.outcome, r.reason, r.game_winner) == (Outcome.WIN, Reason.ALL_CARDS, 0)


def test_example7_fast_and_cli() -> None:
    check_fast_and_cli(
        "war", EX7, outcome="win", reason="all_cards", winner=0,
        battles=1, final_counts=[10, 0], eliminated={"1": 1},
    )


# --- Rule 5.4's own example ------------------------------------------------
# RULES.md says "seat 0 takes all six cards", but 5C / 3D 9C / 3H 8C holds
# five cards: the real count is 5.

RULE54 = "5C / 3D 9C / 3H 8C"


def test_rule54_example_step() -> None:
    game = Game(PEACE, parse_hands(RULE54))
    r = game.play_battle()
    assert r.face_up == (c("5C"), c("3D"), c("3H"))
    assert r.winning_seats == (1, 2)
    assert len(r.peaces) == 1
    p = r.peaces[0]
    assert p.face_down == ((), (), ())
    assert p.face_up == (c("5C"), c("9C"), c("8C"))
    assert p.standing == (0,)
    assert p.winning_seats == (0,)
    assert r.winner == 0
    assert r.pot == 5
    assert r.pot_cards() == list(cs("5C 3D 3H 9C 8C"))
    assert r.out == (1, 2)
    assert r.counts == (5, 0, 0)
    assert (r.outcome, r.reason, r.game_winner) == (Outcome.WIN, Reason.ALL_CARDS, 0)


def test_rule54_example_fast_and_cli() -> None:
    check_fast_and_cli(
        "peace", RULE54, outcome="win", reason="all_cards", winner=0,
        battles=1, final_counts=[5, 0, 0], eliminated={"1": 1, "2": 1},
    )


def test_peace_lays_at_most_five_and_short_piles_lay_k_minus_1() -> None:
    # Rule 5.3: seat 0 has 8 cards after the battle card (lays 5, turns 1),
    # seat 1 has 3 (lays 2, turns the last).
    game = Game(PEACE, parse_hands("6C 2C 3C 4C 5C 7C 9C TC JC / 6D 8D 9D KD"))
    r = game.play_battle()
    p = r.peaces[0]
    assert p.face_down == (cs("2C 3C 4C 5C 7C"), cs("8D 9D"))
    assert p.face_up == (c("9C"), c("KD"))
    assert r.winner == 0
    assert r.pot == 11
    assert pile_text(game) == ["TC JC 6C 6D 2C 3C 4C 5C 7C 9C 8D 9D KD", ""]


def test_second_peace_with_a_standing_card() -> None:
    # Peace 1: 5C vs 5D tie again and seat 1 has nothing left; peace 2: 5D
    # stands and seat 0 turns 2C, which takes everything.
    game = Game(PEACE, parse_hands("4C 6C 7C 8C 9C TC 5C 2C / 4D 5D"))
    r = game.play_battle()
    assert len(r.peaces) == 2
    assert r.peaces[0].face_down == (cs("6C 7C 8C 9C TC"), ())
    assert r.peaces[0].face_up == (c("5C"), c("5D"))
    assert r.peaces[0].standing == ()
    assert r.peaces[0].winning_seats == (0, 1)
    assert r.peaces[1].standing == (1,)
    assert r.peaces[1].face_down == ((), ())
    assert r.peaces[1].face_up == (c("2C"), c("5D"))
    assert r.peaces[1].winning_seats == (0,)
    assert r.winner == 0
    assert r.pot == 10
    assert r.pot_cards() == list(cs("4C 4D 6C 7C 8C 9C TC 5C 5D 2C"))
    assert battle_json(r)["peaces"][1]["standing"] == [1]
    assert play_fast(PEACE, parse_hands("4C 6C 7C 8C 9C TC 5C 2C / 4D 5D")) == summarize(game)


# --- Section 9: the seed ``peace`` ----------------------------------------

PEACE_COMMITMENT = "c2e10c20bf46daf0ba03f725218b012544a3d0d3b37334eeb1d4d81e5406e478"
PEACE_DECK = (
    "8S QS AS QH 4D 4H 5C QD 9D 4C 7H 3D JD 2D 8H 3S JC 6D 6S 4S JS AC 5D TS 2C KD "
    "7S 7C 2H 8C TC 3H 9S 2S QC 9C 3C 7D 8D KS TH AD 6H 9H TD AH 6C 5S 5H KC KH JH"
)


def test_seed_peace_commitment_and_deck() -> None:
    assert commitment("peace") == PEACE_COMMITMENT
    deck = shuffled_deck("peace")
    assert len(deck) == 52
    assert len(set(deck)) == 52
    assert cards_text(deck) == PEACE_DECK


def test_seed_peace_deal_is_dealt_round_the_table() -> None:
    deck = PEACE_DECK.split()
    setup = Setup.from_seed(PEACE, 2, "peace")
    assert [cards_text(p) for p in setup.piles] == [" ".join(deck[0::2]), " ".join(deck[1::2])]
    three = Setup.from_seed(PEACE, 3, "peace")
    assert [len(p) for p in three.piles] == [17, 17, 17]
    assert [cards_text(p) for p in three.piles] == [" ".join(deck[s:51:3]) for s in range(3)]
    # JH, the 52nd card, is set aside with three players.
    assert c("JH") not in {x for p in three.piles for x in p}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seed_peace_game_step_fast_and_cli_agree(players: int) -> None:
    setup = Setup.from_seed(PEACE, players, "peace")
    game = setup.new_game()
    game.play_to_end()
    step = summarize(game)
    assert play_fast(PEACE, setup.piles) == step
    record = cli_json("--seed", "peace", "--players", str(players))
    assert record == game_json(setup)
    assert record["seed"] == "peace"
    assert record["battles"] == step.battles
    assert record["reason"] == step.reason.value
    assert record["final_counts"] == list(step.final_counts)


def test_cli_shuffle_seed_peace() -> None:
    proc = subprocess.run(
        [*CLI, "shuffle", "--seed", "peace"], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [f"commitment {PEACE_COMMITMENT}", f"deck {PEACE_DECK}"]


def test_battle_result_is_a_battle_result() -> None:
    r = Game(PEACE, parse_hands("2C / 3C")).play_battle()
    assert isinstance(r, BattleResult)
    assert battle_json(r) == {
        "battle": 1, "face_up": ["2C", "3C"], "winning_seats": [0], "peaces": [],
        "winner": 0, "pot": 2, "out": [1], "counts": [2, 0],
        "outcome": "win", "reason": "all_cards",
    }
