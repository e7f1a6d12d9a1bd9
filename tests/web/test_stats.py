"""The precomputed statistics exist, have the right shape and still match
the engine (regenerate with ``python -m cardwar.web.stats``)."""

from __future__ import annotations

from cardwar.engine import VARIANTS
from cardwar.web import beggar_stats, stats


def test_stats_cover_every_variant_and_player_count():
    data = stats.load()
    assert data["games"] >= 1000
    for name, variant in VARIANTS.items():
        if variant.play != "battles":  # a game in turns has its own file (below)
            continue
        rows = data["variants"][name]
        assert [r["players"] for r in rows] == list(variant.players)
        for r in rows:
            assert r["games"] == data["games"]
            assert 0 < r["median_battles"] <= r["max_battles"]
            assert 0 <= r["draw_share"] <= 1
            assert sum(r["reasons"].values()) == r["games"]


def test_stats_file_matches_the_engine():
    """Recompute one row (two-player Peace, about a second) and compare."""
    data = stats.load()
    row = stats.compute("peace", 2, data["games"], data["seed"])
    stale = "stats.json is stale: run python -m cardwar.web.stats"
    assert row == data["variants"]["peace"][0], stale


def test_peace_draws_only_at_the_limit_and_war_only_by_cycles_or_deadlock():
    for r in stats.for_variant("peace"):
        assert r["reasons"]["cycle"] == 0
    for r in stats.for_variant("war"):
        assert r["reasons"]["battle_limit"] == 0


def test_beggar_stats_match_the_engine():
    """The rules page's Beggar-my-neighbour figures: recompute a few hundred deals
    of the same seeds and check the shape; the histogram holds every game."""
    data = beggar_stats.load()
    assert sum(b["games"] for b in data["bins"]) == data["games"] >= 1000
    assert 0 < data["median_cards"] <= data["max_cards"]
    assert data["mean_tricks"] < data["mean_cards"]
    small = beggar_stats.compute(200, data["seed"])
    assert sum(b["games"] for b in small["bins"]) == 200
    assert small["max_cards"] <= data["max_cards"]
