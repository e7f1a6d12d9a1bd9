"""The precomputed statistics (cardwar/web/stats.json, ``make stats``) exist,
have the right shape, and agree with a fresh, smaller simulation within
their confidence intervals."""

from __future__ import annotations

import math

import numpy as np
import pytest

from cardwar.engine import VARIANTS
from cardwar.web import beggar_stats, stats

#: Games per row of the fresh simulation, and how wide its intervals are
#: (z = 3.29: 99.9%, so six rows with several figures each do not fail by chance;
#: the seed is fixed anyway, so a pass is a pass for good).
FRESH = 4000
Z = 3.29

BATTLE_VARIANTS = {n: v for n, v in VARIANTS.items() if v.play == "battles"}


def test_stats_cover_every_variant_and_player_count() -> None:
    data = stats.load()
    assert data["games"] >= 100_000
    for name, variant in BATTLE_VARIANTS.items():
        rows = data["variants"][name]
        assert [r["players"] for r in rows] == list(variant.players)
        for r in rows:
            assert r["games"] == data["games"]
            assert 0 < r["median_battles"] <= r["max_battles"]
            assert r["mean_ci"][0] <= r["mean_battles"] <= r["mean_ci"][1]
            assert r["median_ci"][0] <= r["median_battles"] <= r["median_ci"][1]
            assert r["draw_ci"][0] <= r["draw_share"] <= r["draw_ci"][1]
            assert sum(r["reasons"].values()) == r["games"]
            assert sum(r["histogram"]["counts"]) == r["games"]
            decided = r["reasons"]["all_cards"]
            assert sum(s["wins"] for s in r["seats"]) == decided
            assert sum(s["wins"] for s in r["lobby"]) == decided
            assert len(r["seats"]) == len(r["lobby"]) == r["players"]


def test_peace_draws_only_at_the_limit_and_war_only_by_cycles_or_deadlock() -> None:
    for r in stats.for_variant("peace"):
        assert r["reasons"]["cycle"] == 0
        assert r["histogram"]["counts"][-1] >= r["reasons"]["battle_limit"]
    for r in stats.for_variant("war"):
        assert r["reasons"]["battle_limit"] == 0


def test_seat_shares_as_the_rules_say() -> None:
    """RULES.md 6: in 2-player Peace seat 1 wins about 58% of the games won;
    the seating draw (RULES.md 9) makes it even per lobby position."""
    row = stats.for_variant("peace")[0]
    assert row["players"] == 2
    assert 0.56 < row["seats"][1]["share"] < 0.60
    for s in row["lobby"]:
        assert s["ci"][0] <= 0.5 <= s["ci"][1]


def _close(fresh: tuple[float, float], stored: float) -> bool:
    """``stored`` lies within the fresh estimate's interval (value, standard error)."""
    value, se = fresh
    return abs(value - stored) <= Z * se + 1e-9


@pytest.mark.parametrize("name", sorted(BATTLE_VARIANTS))
def test_stats_file_agrees_with_a_fresh_simulation(name: str) -> None:
    """4,000 fresh games per row, other seeds: the stored mean, draw share,
    reasons and seat shares lie within the fresh simulation's 99.9% interval."""
    for row in stats.for_variant(name):
        fresh = stats.compute(name, row["players"], FRESH, "fresh-check")
        games = fresh["games"]
        half = fresh["mean_ci"][1] - fresh["mean_battles"]
        se = half / stats.Z95
        assert _close((fresh["mean_battles"], se), row["mean_battles"]), (name, row["players"])
        for share in ("draw_share", "limit_share", "cycle_share"):
            low, high = stats.wilson(round(fresh[share] * games), games, Z)
            assert low <= row[share] <= high, (name, row["players"], share)
        decided = fresh["reasons"]["all_cards"]
        for kind in ("seats", "lobby"):
            for mine, theirs in zip(fresh[kind], row[kind], strict=True):
                low, high = stats.wilson(mine["wins"], decided, Z)
                assert low <= theirs["share"] <= high, (name, row["players"], kind)


def test_wilson_interval() -> None:
    # A textbook case: 81 successes in 263 trials.
    low, high = stats.wilson(81, 263)
    assert math.isclose(low, 0.2553, abs_tol=1e-3)
    assert math.isclose(high, 0.3662, abs_tol=1e-3)
    assert stats.wilson(0, 10)[0] == 0.0
    assert stats.wilson(10, 10)[1] == 1.0
    with pytest.raises(ValueError, match="no share 3 of 0"):
        stats.wilson(3, 0)


def test_histogram_bars() -> None:
    peace = stats.histogram(VARIANTS["peace"], np.array([1, 100, 101, 999, 1000]))
    assert peace["width"] == 100
    assert peace["limit"] is True
    assert peace["counts"][0] == 2
    assert peace["counts"][1] == 1
    assert peace["counts"][-1] == 2
    war = stats.histogram(VARIANTS["war"], np.array([1, 3000, 180_000]))
    assert war["limit"] is False
    assert war["counts"][-1] == 2
    assert sum(war["counts"]) == 3


def test_beggar_stats_match_the_engine() -> None:
    """The rules page's Beggar-my-neighbour figures: recompute a few hundred deals
    of the same seeds and check the shape; the histogram holds every game."""
    data = beggar_stats.load()
    assert sum(b["games"] for b in data["bins"]) == data["games"] >= 1000
    assert 0 < data["median_cards"] <= data["max_cards"]
    assert data["mean_tricks"] < data["mean_cards"]
    small = beggar_stats.compute(200, data["seed"])
    assert sum(b["games"] for b in small["bins"]) == 200
    assert small["max_cards"] <= data["max_cards"]
