"""Property tests of the engine (RULES.md sections 3-7 and 9) with hypothesis."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from itertools import permutations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardwar.engine import (
    PEACE,
    WAR,
    Card,
    Game,
    Outcome,
    Reason,
    Setup,
    Summary,
    Variant,
    cards_text,
    deal,
    game_json,
    parse_hands,
    play_fast,
    rank,
    summarize,
)

FAST = settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

#: (variant, face-down count) for every option the rules allow.
OPTIONS: list[tuple[Variant, int]] = [(PEACE, 5), (WAR, 3), (WAR, 1)]


@st.composite
def deals(
    draw: st.DrawFn, *, players: Sequence[int] = (2, 3, 4), max_ranks: int = 13
) -> tuple[list[list[Card]], int]:
    """A deal: some cards (sometimes of few ranks, for many ties) dealt to 2-4 seats.

    Returns the piles and the player count.
    """
    n = draw(st.sampled_from(list(players)))
    ranks = draw(st.integers(min_value=1, max_value=max_ranks))
    pool = [Card(s * 13 + r) for r in range(ranks) for s in range(4)]
    size = draw(st.integers(min_value=n, max_value=len(pool)))
    deck = draw(st.permutations(pool))[:size]
    return deal(deck, n), n


@st.composite
def uneven_hands(draw: st.DrawFn, *, players: int = 2) -> list[list[Card]]:
    """Piles of different sizes (not from a deal), often sharing ranks."""
    ranks = draw(st.integers(min_value=1, max_value=6))
    pool = [Card(s * 13 + r) for r in range(ranks) for s in range(4)]
    cards = draw(st.permutations(pool))
    cuts = sorted(
        draw(
            st.lists(
                st.integers(min_value=1, max_value=len(cards) - 1),
                min_size=players - 1, max_size=players - 1, unique=True,
            )
        )
    )
    bounds = [0, *cuts, len(cards)]
    return [list(cards[bounds[i] : bounds[i + 1]]) for i in range(players)]


def card_multiset(game: Game) -> Counter[Card]:
    return Counter([c for p in game.piles for c in p] + list(game.pot))


def check_game(variant: Variant, piles: list[list[Card]], face_down: int) -> Game:
    """Play ``piles`` battle by battle, checking the invariants after every battle."""
    game = Game(variant, piles, face_down)
    in_play = Counter(c for p in piles for c in p)
    assert game.cards_in_play == sum(in_play.values())
    previous_out: set[int] = set()
    while not game.over:
        before_active = game.in_play()
        before = [list(p) for p in game.piles]
        r = game.play_battle()
        assert r.number == game.battles
        # Cards are neither made nor lost: piles + pot are the cards in play.
        assert sum(r.counts) + len(game.pot) == game.cards_in_play
        assert card_multiset(game) == in_play
        assert r.counts == game.counts()
        # Every seat in play turned its top card; seats out turned nothing.
        for s in range(game.players):
            if s in before_active:
                assert r.face_up[s] == before[s][0]
            else:
                assert r.face_up[s] is None
        pot = r.pot_cards()
        assert len(pot) == r.pot
        assert len(set(pot)) == r.pot
        # Every peace: every seat in play takes part; rule 5.3 and 5.4.
        up: dict[int, Card] = {s: before[s][0] for s in before_active}
        left = {s: len(before[s]) - 1 for s in before_active}
        for peace in r.peaces:
            for s in range(game.players):
                if s not in before_active:
                    assert peace.face_down[s] is None
                    assert peace.face_up[s] is None
                    continue
                down = peace.face_down[s]
                assert down is not None
                if left[s] == 0:
                    assert s in peace.standing
                    assert down == ()
                    assert peace.face_up[s] == up[s]
                else:
                    assert s not in peace.standing
                    assert len(down) == min(face_down, left[s] - 1)
                    left[s] -= len(down) + 1
                    new_up = peace.face_up[s]
                    assert new_up is not None
                    up[s] = new_up
            best = (min if variant.low_wins else max)(rank(c) for c in up.values())
            assert peace.winning_seats == tuple(
                s for s in sorted(up) if rank(up[s]) == best
            )
        if r.winner is not None:
            # Rule 6: the pot goes to the bottom of the winner's pile, in laying order.
            assert list(game.piles[r.winner])[len(game.piles[r.winner]) - r.pot :] == pot
            final_leaders = r.peaces[-1].winning_seats if r.peaces else r.winning_seats
            assert final_leaders == (r.winner,)
            newly_out = {s for s in before_active if not game.piles[s]}
            assert set(r.out) == newly_out
            assert all(game.eliminated[s] == r.number for s in newly_out)
        else:
            assert r.reason == Reason.UNRESOLVABLE
            assert game.pot == pot
            assert all(not game.piles[s] for s in before_active)
        assert previous_out <= set(game.eliminated)
        previous_out = set(game.eliminated)
    if game.outcome == Outcome.WIN:
        assert game.reason == Reason.ALL_CARDS
        assert game.winner is not None
        assert game.counts()[game.winner] == game.cards_in_play
        assert game.in_play() == [game.winner]
    else:
        assert game.winner is None
    if variant.battle_limit is not None:
        assert game.battles <= variant.battle_limit
        if game.reason == Reason.BATTLE_LIMIT:
            assert game.battles == variant.battle_limit
    if game.reason == Reason.CYCLE:
        assert variant.cycle_draw
    return game


@FAST
@given(deal_=deals(), option=st.sampled_from(OPTIONS))
def test_invariants_after_every_battle(
    deal_: tuple[list[list[Card]], int], option: tuple[Variant, int]
) -> None:
    piles, _ = deal_
    variant, face_down = option
    game = check_game(variant, piles, face_down)
    assert summarize(game) == play_fast(variant, piles, face_down)


@FAST
@given(hands=st.integers(min_value=2, max_value=4).flatmap(
    lambda n: uneven_hands(players=n)), option=st.sampled_from(OPTIONS))
def test_invariants_with_uneven_hands(
    hands: list[list[Card]], option: tuple[Variant, int]
) -> None:
    variant, face_down = option
    game = check_game(variant, hands, face_down)
    assert summarize(game) == play_fast(variant, hands, face_down)


def _step_summary(
    variant: Variant, piles: Sequence[Sequence[Card]], face_down: int | None = None
) -> Summary:
    game = Game(variant, piles, face_down)
    game.play_to_end()
    return summarize(game)


@settings(max_examples=150, deadline=None)
@given(hands=uneven_hands(players=2))
def test_two_player_peace_fast_round_path_equals_step_small(hands: list[list[Card]]) -> None:
    # Few ranks: many ties, peaces with short piles, standing cards, unresolvable.
    assert play_fast(PEACE, hands) == _step_summary(PEACE, hands)


@settings(max_examples=80, deadline=None)
@given(deal_=deals(players=(2,)))
def test_two_player_peace_fast_round_path_equals_step_deals(
    deal_: tuple[list[list[Card]], int],
) -> None:
    piles, _ = deal_
    assert play_fast(PEACE, piles) == _step_summary(PEACE, piles)


def test_two_player_peace_fast_equals_step_on_seeded_deals() -> None:
    # Full 52-card deals reach the battle limit, long peaces and late wins.
    reasons: Counter[str] = Counter()
    for i in range(150):
        setup = Setup.from_seed(PEACE, 2, f"prop/{i}")
        fast = play_fast(PEACE, setup.piles)
        assert fast == _step_summary(PEACE, setup.piles), f"seed prop/{i}"
        reasons[fast.reason.value] += 1
    # The sample must exercise both ways a 2-player Peace deal usually ends.
    assert reasons["all_cards"] > 0
    assert reasons["battle_limit"] > 0


@settings(max_examples=25, deadline=None)
@given(
    seed=st.text(max_size=12),
    players=st.integers(min_value=2, max_value=4),
    option=st.sampled_from(OPTIONS),
)
def test_same_seed_same_record(seed: str, players: int, option: tuple[Variant, int]) -> None:
    variant, face_down = option
    one = game_json(Setup.from_seed(variant, players, seed, face_down), log=True)
    two = game_json(Setup.from_seed(variant, players, seed, face_down), log=True)
    assert one == two
    assert json.loads(json.dumps(one)) == one
    short = game_json(Setup.from_seed(variant, players, seed, face_down))
    assert {k: v for k, v in one.items() if k != "log"} == short
    assert one["seed"] == seed
    assert len(one["log"]) == one["battles"]
    if variant is PEACE:
        assert one["battles"] <= 1000


@settings(max_examples=40, deadline=None)
@given(seed=st.text(max_size=8), players=st.integers(min_value=2, max_value=4))
def test_peace_ends_within_1000_battles_and_winner_holds_all(seed: str, players: int) -> None:
    setup = Setup.from_seed(PEACE, players, seed)
    s = play_fast(PEACE, setup.piles)
    assert 1 <= s.battles <= 1000
    in_play = 52 // players * players
    if s.outcome == Outcome.WIN:
        assert s.winner is not None
        assert s.final_counts[s.winner] == in_play
        assert sum(s.final_counts) == in_play
        assert set(s.eliminated) == set(range(players)) - {s.winner}
    elif s.reason == Reason.BATTLE_LIMIT:
        assert s.battles == 1000
        assert sum(s.final_counts) == in_play
    else:
        assert s.reason == Reason.UNRESOLVABLE
        assert sum(s.final_counts) < in_play


# --- Peaces won by a player who was not tied (rule 5.1) ---------------------


@settings(max_examples=60, deadline=None)
@given(data=st.data(), players=st.sampled_from([3, 4]))
def test_untied_player_wins_a_peace(data: st.DataObject, players: int) -> None:
    rnd = data.draw(st.randoms(use_true_random=False))
    winner = data.draw(st.integers(min_value=0, max_value=players - 1))
    others = [s for s in range(players) if s != winner]
    tied = sorted(rnd.sample(others, data.draw(st.integers(2, len(others)))))
    tie_rank = 3  # a 5: the tied seats turn 5s, the others something higher
    by_rank = {r: [Card(s * 13 + r) for s in range(4)] for r in range(13)}
    for cards in by_rank.values():
        rnd.shuffle(cards)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for s in range(players):  # battle cards
        r = tie_rank if s in tied else rnd.randint(tie_rank + 1, 12)
        while not by_rank[r]:
            r += 1
        hands[s].append(by_rank[r].pop())
    # The peace's face-up cards: a 2 for the winner, 7 or higher for the rest.
    face_up = {winner: by_rank[0].pop()}
    for s in others:
        r = rnd.randint(5, 12)
        while not by_rank[r]:
            r = r % 12 + 1 if r < 12 else 5
        face_up[s] = by_rank[r].pop()
    rest = [c for cards in by_rank.values() for c in cards]
    rnd.shuffle(rest)
    for s in range(players):
        hands[s].extend(rest.pop() for _ in range(5))
        hands[s].append(face_up[s])
        hands[s].extend(rest.pop() for _ in range(rnd.randint(0, 2)))
    game = Game(PEACE, hands)
    r = game.play_battle()
    assert r.winning_seats == tuple(tied)
    assert winner not in r.winning_seats
    assert len(r.peaces) == 1
    assert r.peaces[0].face_down == tuple(tuple(h[1:6]) for h in hands)
    assert r.peaces[0].winning_seats == (winner,)
    assert r.winner == winner
    assert r.pot == 7 * players
    assert game.counts()[winner] == len(hands[winner]) - 7 + 7 * players
    assert play_fast(PEACE, hands) == _step_summary(PEACE, hands)


def test_four_player_peace_won_by_untied_seat() -> None:
    hands = parse_hands(
        "4C 9C 9D 9H 9S TC KC / 4D 8C 8D 8H 8S TD KD / "
        "QC 7C 7D 7H 7S TH 2S / 4H 6C 6D 6H 6S TS AS"
    )
    game = Game(PEACE, hands)
    r = game.play_battle()
    assert r.winning_seats == (0, 1, 3)
    assert r.peaces[0].face_up == tuple(h[6] for h in hands)
    assert r.winner == 2
    assert r.pot == 28
    assert r.game_winner == 2
    assert game.eliminated == {0: 1, 1: 1, 3: 1}


# --- War's cycle rule ------------------------------------------------------


def _positions(game: Game) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(p) for p in game.piles)


def find_cycling_war_hand(max_cards: int = 5) -> list[list[Card]]:
    """Search small two-player War hands (ranks 2-6, clubs) for one that cycles."""
    pool = [Card(r) for r in range(max_cards)]
    for n in range(2, max_cards + 1):
        for perm in permutations(pool[:n]):
            for cut in range(1, n):
                hands = [list(perm[:cut]), list(perm[cut:])]
                game = Game(WAR, hands)
                game.play_to_end()
                if game.reason == Reason.CYCLE:
                    return hands
    raise AssertionError("no cycling hand found")


def test_war_cycle_concrete_hand() -> None:
    # 2C 4C / 5C 3C: battles 3-6 repeat; the start of battle 7 equals the start of battle 3.
    hands = parse_hands("2C 4C / 5C 3C")
    game = Game(WAR, hands)
    seen = [_positions(game)]
    while not game.over:
        game.play_battle()
        seen.append(_positions(game))
    assert game.outcome == Outcome.DRAW
    assert game.reason == Reason.CYCLE
    assert game.winner is None
    assert game.battles == 6
    assert [cards_text(p) for p in game.piles] == ["4C 3C", "2C 5C"]
    assert seen[-1] == seen[2]
    assert len(set(seen[:-1])) == len(seen) - 1  # no repeat before the last battle
    assert play_fast(WAR, hands) == summarize(game)
    # Peace never stops for a repeat: the same kind of loop plays to its limit.
    peace = Game(PEACE, hands)
    peace.play_to_end()
    assert peace.reason != Reason.CYCLE


def test_war_cycle_found_by_search_repeats_a_position() -> None:
    hands = find_cycling_war_hand()
    game = Game(WAR, hands)
    seen = [_positions(game)]
    while not game.over:
        game.play_battle()
        seen.append(_positions(game))
    assert game.reason == Reason.CYCLE
    assert seen[-1] in seen[:-1]
    assert len(set(seen[:-1])) == len(seen) - 1


@FAST
@given(deal_=deals(max_ranks=4), face_down=st.sampled_from([3, 1]))
def test_war_cycle_means_a_repeated_position(
    deal_: tuple[list[list[Card]], int], face_down: int
) -> None:
    piles, _ = deal_
    game = Game(WAR, piles, face_down)
    seen = [_positions(game)]
    while not game.over:
        game.play_battle()
        seen.append(_positions(game))
    before = seen[:-1]
    assert len(set(before)) == len(before)  # the game stops at the first repeat
    if game.reason == Reason.CYCLE:
        assert seen[-1] in before
    elif game.reason == Reason.ALL_CARDS:
        assert seen[-1] not in before


# A variant is data (RULES.md section 2): a War-like row without the cycle
# rule but with a battle limit takes play_fast's two-player round path with
# "highest wins", which neither standard variant does.
WAR_LIMITED = replace(WAR, name="war-limited", battle_limit=300, cycle_draw=False)


@settings(max_examples=80, deadline=None)
@given(hands=uneven_hands(players=2), face_down=st.sampled_from([3, 1]))
def test_high_wins_round_path_equals_step(hands: list[list[Card]], face_down: int) -> None:
    assert play_fast(WAR_LIMITED, hands, face_down) == _step_summary(
        WAR_LIMITED, hands, face_down
    )


def test_high_wins_round_path_equals_step_on_seeded_deals() -> None:
    reasons: Counter[str] = Counter()
    for i in range(60):
        piles = Setup.from_seed(WAR_LIMITED, 2, f"hi/{i}").piles
        fast = play_fast(WAR_LIMITED, piles)
        assert fast == _step_summary(WAR_LIMITED, piles), f"seed hi/{i}"
        reasons[fast.reason.value] += 1
    assert reasons["all_cards"] > 0
    assert reasons["battle_limit"] > 0
