"""RULES.md 9, Seating: who sits where, drawn from the seed after the pack's shuffle."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardwar.engine import PEACE, WAR, Setup, game_json, seated, seating, shuffled_deck


@pytest.mark.parametrize(
    ("seed", "players", "expected"),
    [
        ("peace", 2, [0, 1]),
        ("peace", 3, [1, 2, 0]),
        ("peace", 4, [3, 0, 2, 1]),
        ("war", 2, [1, 0]),
        ("war", 4, [3, 2, 1, 0]),
    ],
)
def test_rules_examples(seed: str, players: int, expected: list[int]) -> None:
    assert seating(seed, players) == expected


def _words(seed: str) -> list[int]:
    """w(0), w(1), ...: the first 8 bytes of SHA-256(seed || k), written out from the rule."""
    return [
        int.from_bytes(hashlib.sha256(seed.encode() + k.to_bytes(8, "big")).digest()[:8], "big")
        for k in range(80)
    ]


@settings(max_examples=60, deadline=None)
@given(seed=st.text(max_size=12), players=st.integers(min_value=1, max_value=4))
def test_the_counter_goes_on_after_the_pack(seed: str, players: int) -> None:
    """Redo the whole rule from the words: 51 swaps of the pack, then the seats."""
    words = iter(_words(seed))

    def uniform(m: int) -> int:
        while True:
            w = next(words)
            if w < 2**64 - (2**64 % m):
                return w % m

    pack = list(range(52))
    for i in range(51, 0, -1):
        j = uniform(i + 1)
        pack[i], pack[j] = pack[j], pack[i]
    assert pack == shuffled_deck(seed)
    order = list(range(players))
    for i in range(players - 1, 0, -1):
        j = uniform(i + 1)
        order[i], order[j] = order[j], order[i]
    assert seating(seed, players) == order
    assert sorted(order) == list(range(players))


def test_every_seating_comes_up() -> None:
    """Over many seeds each of the 24 orders of four players is drawn."""
    drawn = {tuple(seating(f"s{i}", 4)) for i in range(400)}
    assert len(drawn) == 24


def test_no_seed_is_the_identity_and_bad_counts_are_refused() -> None:
    assert seating(None, 3) == [0, 1, 2]
    with pytest.raises(ValueError, match="0 players"):
        seating("x", 0)
    with pytest.raises(ValueError, match="0 players"):
        seating(None, 0)


def test_seated_puts_the_lobby_in_table_order() -> None:
    lobby = ["Ann (creator)", "Bob", "computer"]
    assert seated(seating("peace", 3), lobby) == ["Bob", "computer", "Ann (creator)"]
    assert seated([1, 0], ["Ann", "Bob"]) == ["Bob", "Ann"]
    with pytest.raises(ValueError, match="not a seating of 2"):
        seated([0, 0], ["Ann", "Bob"])
    with pytest.raises(ValueError, match="not a seating of 3"):
        seated([1, 0], ["Ann", "Bob", "Cy"])


def test_setups_and_records_carry_the_seating() -> None:
    assert Setup.from_seed(PEACE, 3, "peace").seating == [1, 2, 0]
    assert game_json(Setup.from_seed(WAR, 4, "war"))["seating"] == [3, 2, 1, 0]
    deck = shuffled_deck("war")
    assert Setup.from_deck(WAR, 4, deck).seating == [0, 1, 2, 3]
    assert Setup.from_deck(WAR, 4, deck, seed="war").seating == [3, 2, 1, 0]
    assert game_json(Setup.from_hands(PEACE, [deck[:3], deck[3:6]]), log=True)["seating"] == [0, 1]
    # The play is unchanged: table seats, dealt from seat 0 (RULES.md 3).
    plain = game_json(Setup.from_deck(PEACE, 3, shuffled_deck("peace")))
    drawn = game_json(Setup.from_seed(PEACE, 3, "peace"))
    assert {k: v for k, v in plain.items() if k not in ("seed", "seating")} == {
        k: v for k, v in drawn.items() if k not in ("seed", "seating")
    }
