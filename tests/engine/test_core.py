"""The compiled core (cardwar.engine.battles.core) plays exactly as the rule-by-rule
engine, game by game: seeded deals of every variant, option and player
count, random deals with many ties and cycles (hypothesis), forced hash
collisions, and the same results over several processes."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cardwar.engine import (
    PEACE,
    VARIANTS,
    WAR,
    Card,
    Game,
    Setup,
    Variant,
    parse_hands,
    play_fast,
    seating,
    shuffled_deck,
    simulate,
    summarize,
)
from cardwar.engine.battles.core_deal import shuffle_into
from cardwar.engine.battles.fast import Summary
from cardwar.engine.battles.simulate import CHUNK, REASONS, Games, play_games, play_piles

#: Every (variant, face-down count, players) the rules allow.
OPTIONS = [
    (v, fd, n) for v in VARIANTS.values() if v.play == "battles"
    for fd in v.face_down_options for n in v.players
]


def reference(variant: Variant, piles: list[list[Card]], face_down: int):
    game = Game(variant, piles, face_down)
    game.play_to_end()
    return summarize(game)


#: Seeded deals of each option that the compiled core plays to choose from.
POOL = 2000
#: A chosen deal plays at most this many battles (the rule engine's time).
LONGEST = 15_000


def kind_of_ending(summary: Summary) -> tuple[str, bool, int, int]:
    """What a game's end exercises: its reason, a winner or a draw, how many
    seats went out, and the most that went out in one battle."""
    out = Counter(summary.eliminated.values())
    return (summary.reason.value, summary.winner is None, len(summary.eliminated),
            max(out.values(), default=0))


def chosen_deals(games: Games) -> list[int]:
    """The pool's deals worth the rule engine's time, from the core's results
    (the rule engine then checks them all): of every kind of ending, the two
    first in seed order and the shortest; the shortest game of the pool and
    the longest up to :data:`LONGEST` battles. The rest of the pool only
    repeats these kinds; the property tests below add random seeds and
    random piles."""
    kinds: dict[tuple[str, bool, int, int], list[int]] = {}
    for i in range(len(games.battles)):
        if games.battles[i] <= LONGEST:
            kinds.setdefault(kind_of_ending(games.summary(i)), []).append(i)
    picked = set()
    for ids in kinds.values():
        picked.update(ids[:2])
        picked.add(min(ids, key=lambda i: games.battles[i]))
    within = [i for ids in kinds.values() for i in ids]
    picked.add(min(within, key=lambda i: games.battles[i]))
    picked.add(max(within, key=lambda i: games.battles[i]))
    return sorted(picked)


@pytest.mark.parametrize(("variant", "face_down", "players"), OPTIONS,
                         ids=[f"{v.name}-{fd}-{n}" for v, fd, n in OPTIONS])
def test_seeded_games_equal_the_rule_engine(variant: Variant, face_down: int,
                                            players: int) -> None:
    """The deals :func:`chosen_deals` picks from 2,000 seeded games per option
    (5 to 16 of them: every kind of ending, the shortest and a long game):
    every summary and seating as the rule engine has them."""
    got = play_games(variant, players, POOL, "core", face_down)
    chosen = chosen_deals(got)
    reasons = set()
    for i in chosen:
        setup = Setup.from_seed(variant, players, f"core/{i}", face_down)
        want = play_fast(variant, setup.piles, face_down)
        assert got.summary(i) == want, f"core/{i}"
        assert list(got.seating[i]) == setup.seating
        reasons.add(want.reason.value)
    # The pool reaches the endings that matter for the option.
    assert "all_cards" in reasons
    assert ("cycle" if variant.cycle_draw else "battle_limit") in reasons
    assert len(chosen) >= 5


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(OPTIONS), st.text(max_size=12))
def test_any_seed_equals_the_rule_engine(option: tuple[Variant, int, int], seed: str) -> None:
    """Random seeds of any option, dealt and seated by the core (play_seeded)."""
    variant, face_down, players = option
    got = play_games(variant, players, 1, seed, face_down)
    assume(got.battles[0] <= LONGEST)  # the rule engine's time; the core has no limit
    setup = Setup.from_seed(variant, players, f"{seed}/0", face_down)
    assert got.summary(0) == play_fast(variant, setup.piles, face_down)
    assert list(got.seating[0]) == setup.seating


@st.composite
def hands(draw: st.DrawFn) -> tuple[Variant, int, list[list[Card]]]:
    """A variant, face-down count and piles of 2-4 seats, of any sizes, from
    few ranks (many ties, peaces, standing cards, unresolvable battles and cycles)."""
    variant = draw(st.sampled_from([PEACE, WAR]))
    fd = draw(st.sampled_from(variant.face_down_options))
    players = draw(st.sampled_from(variant.players))
    ranks = draw(st.integers(min_value=1, max_value=13))
    pool = [Card(s * 13 + r) for r in range(ranks) for s in range(4)]
    cards = draw(st.permutations(pool))
    size = draw(st.integers(min_value=players, max_value=len(cards)))
    cuts = sorted(draw(st.lists(st.integers(min_value=1, max_value=size - 1),
                                min_size=players - 1, max_size=players - 1, unique=True)))
    bounds = [0, *cuts, size]
    return variant, fd, [list(cards[bounds[i]: bounds[i + 1]]) for i in range(players)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(), st.sampled_from([None, 1, 3]))
def test_any_deal_equals_the_rule_engine(deal: tuple[Variant, int, list[list[Card]]],
                                         hash_base: int | None) -> None:
    """Any piles, any sizes; hash bases 1 and 3 make hash collisions common,
    which must never change a result."""
    variant, fd, piles = deal
    got = play_piles(variant, [piles], fd, hash_base=hash_base)
    assert got.summary(0) == reference(variant, piles, fd)


def test_weak_hash_still_finds_the_first_repeat() -> None:
    """With base 1 a pile's hash is only its cards' sum: positions collide
    all the time, yet every game ends as in the engine: 40 seeded War deals
    that cycle (found by the core with its real hash) and 10 that do not."""
    pool = play_games(WAR, 2, 300, "weak", 1)
    cycles = [i for i in range(300) if REASONS[pool.reason[i]] == "cycle"][:40]
    others = [i for i in range(300) if REASONS[pool.reason[i]] != "cycle"][:10]
    assert len(cycles) == 40
    setups = [Setup.from_seed(WAR, 2, f"weak/{i}", 1) for i in cycles + others]
    got = play_piles(WAR, [s.piles for s in setups], 1, hash_base=1)
    for i, s in enumerate(setups):
        assert got.summary(i) == play_fast(WAR, s.piles, 1)


def test_a_variant_with_both_a_battle_limit_and_the_cycle_rule() -> None:
    """Variants are data: a made-up one (high wins, 2 face down, limit 300,
    cycles drawn) plays as in the engine, the limit checked before a repeat
    (the chosen deals of 400 seeded games per player count)."""
    toy = Variant(name="toy", low_wins=False, face_down=2, face_down_options=(2,),
                  battle_limit=300, players=(2, 3), default_players=2, cycle_draw=True)
    for players in toy.players:
        got = play_games(toy, players, 400, "toy")
        reasons = set()
        for i in chosen_deals(got):
            want = play_fast(toy, Setup.from_seed(toy, players, f"toy/{i}").piles)
            assert got.summary(i) == want, f"toy/{i}"
            reasons.add(want.reason.value)
        assert {"all_cards", "battle_limit"} <= reasons


def test_worked_examples() -> None:
    """RULES.md 8, examples 1, 3, 4 and 7, through the core."""
    cases = [
        (PEACE, "2C 5D / 9H 3S", ("battle_limit", None, 1000)),
        (PEACE, "4C / 4D 2H", ("all_cards", 1, 1)),
        (PEACE, "4C / 4D", ("unresolvable", None, 1)),
        (WAR, "5C 2C 2D 2H AC / 5D 3C 3D 3H KC", ("all_cards", 0, 1)),
    ]
    for variant, text, (reason, winner, battles) in cases:
        s = play_piles(variant, [parse_hands(text)]).summary(0)
        assert (s.reason.value, s.winner, s.battles) == (reason, winner, battles), text


@pytest.mark.parametrize("seed", ["", "peace", "x" * 55, "x" * 56, "é" * 40, "y" * 130])
def test_compiled_shuffle_and_seating_equal_rules_section_9(seed: str) -> None:
    """Seeds of every length (one SHA-256 block, two, three), non-ASCII included."""
    data = np.frombuffer(seed.encode("utf-8"), np.uint8)
    deck = np.empty(52, np.int64)
    order = np.empty(4, np.int64)
    shuffle_into(data, 4, deck, order, np.empty(len(data) + 160, np.uint8),
                 np.empty(64, np.int64))
    assert list(deck) == shuffled_deck(seed)
    assert list(order) == seating(seed, 4)


def test_processes_give_the_same_games() -> None:
    games = 2 * CHUNK + 7
    one = play_games(PEACE, 3, games, "proc")
    two = play_games(PEACE, 3, games, "proc", processes=2)
    for field in ("reason", "winner", "battles", "counts", "eliminated", "seating"):
        assert np.array_equal(getattr(one, field), getattr(two, field)), field
    assert simulate(PEACE, 3, games, "proc") == simulate(PEACE, 3, games, "proc", processes=2)


def test_progress_counts_every_game() -> None:
    seen: list[int] = []
    play_games(WAR, 4, CHUNK + 3, "bar", progress=seen.append)
    assert seen == [CHUNK, 3]


def test_simulate_summary_counts_add_up() -> None:
    r = simulate(WAR, 2, 3000, "sum")
    assert sum(r["reasons"].values()) == 3000
    assert sum(r["wins_by_seat"]) == sum(r["wins_by_lobby"]) == r["reasons"]["all_cards"]
    assert r["min_battles"] <= r["median_battles"] <= r["max_battles"]


def test_bad_calls() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        play_games(PEACE, 2, 0)
    with pytest.raises(ValueError, match="processes"):
        play_games(PEACE, 2, 5, processes=0)
    with pytest.raises(ValueError, match="odd"):
        play_piles(PEACE, [parse_hands("2C / 3C")], hash_base=2)
    with pytest.raises(ValueError, match="same number"):
        play_piles(PEACE, [parse_hands("2C / 3C"), parse_hands("2D / 3D / 4D")])
    with pytest.raises(ValueError, match="twice"):
        play_piles(PEACE, [[[Card(1)], [Card(1)]]])
    with pytest.raises(ValueError, match="52"):
        play_piles(PEACE, [[[Card(52)], [Card(1)]]])
    with pytest.raises(ValueError, match="52"):
        play_piles(PEACE, [[[Card(-1), Card(2)], [Card(1)]]])
    with pytest.raises(ValueError, match="at least one card"):
        play_piles(PEACE, [[[Card(2)], []]])
    with pytest.raises(ValueError, match="battle game"):
        play_games(VARIANTS["beggar"], 2, 5)


def test_the_site_loads_neither_numpy_nor_numba() -> None:
    """The web server imports the engine; the compiled core loads only to simulate."""
    code = ("import sys, cardwar.web.app, cardwar.engine; "
            "print(sorted(m for m in ('numpy', 'numba') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert out.strip() == "[]"
