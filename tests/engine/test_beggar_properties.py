"""Property tests of Beggar-my-neighbour (RULES.md section 10) with hypothesis."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardwar.engine import (
    BeggarGame,
    BeggarSetup,
    Card,
    Outcome,
    Reason,
    beggar_json,
    card_text,
    deal,
    play_beggar_fast,
    summarize_beggar,
)
from cardwar.engine.beggar.game import VALUE_OF

FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def deals(draw: st.DrawFn) -> list[list[Card]]:
    """Two non-empty piles: a whole pack dealt 26/26, or a cut of some cards, court-heavy or not."""
    if draw(st.booleans()):
        return deal(draw(st.permutations([Card(c) for c in range(52)])), 2)
    courts = [Card(c) for c in range(52) if VALUE_OF[c]]
    plains = [Card(c) for c in range(52) if not VALUE_OF[c] and c not in (0, 13)]
    pool = draw(st.lists(st.sampled_from(courts), unique=True, max_size=16)) + draw(
        st.lists(st.sampled_from(plains), unique=True, max_size=36))
    cards = draw(st.permutations([*pool, Card(0), Card(13)]))  # 2C 2D: at least two cards
    cut = draw(st.integers(min_value=1, max_value=len(cards) - 1))
    return [list(cards[:cut]), list(cards[cut:])]


#: Deals known to cycle (RULES.md 10.8), in notation: a cycle from the deal
#: or later, of 2 or 4 tricks, and Casella's (RULES.md 10.9). Random deals
#: almost never cycle.
CYCLIC = [
    "--J-/J-", "J--/-J-", "-----JJ/J", "----J/J-Q", "--J-/A-J-", "-JJ-/--J-", "JQ-/--J--",
    "A--J--/-J", "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA",
]
#: Deals whose piles repeat with the other player to start (no cycle), that
#: end with a court card from an empty hand, or by a payment that empties it.
TRICKY = ["J/----J-", "Q/--", "-/-", "--/-", "-K-/--Q-", "---AJ--Q---------QAKQJJ-QK/"
          "-----A----KJ-K--------A---"]


@st.composite
def patterned_deals(draw: st.DrawFn, patterns: list[str] = CYCLIC) -> list[list[Card]]:
    """A deal of ``patterns`` (notation), each symbol a card of its value drawn at random."""
    hands = draw(st.sampled_from(patterns)).split("/")
    pools = {v: iter(draw(st.permutations([Card(c) for c in range(52) if VALUE_OF[c] == v])))
             for v in range(5)}
    return [[next(pools["-JQKA".index(ch)]) for ch in hand] for hand in hands]


ANY_DEAL = st.one_of(deals(), patterned_deals(CYCLIC), patterned_deals(TRICKY))


@FAST
@given(piles=ANY_DEAL)
def test_every_card_is_somewhere_at_every_step(piles: list[list[Card]]) -> None:
    game = BeggarGame(piles)
    dealt = Counter(piles[0] + piles[1])
    for _ in range(100_000):
        if game.over:
            break
        result = game.put_down()
        held = Counter([c for p in game.piles for c in p] + game.table)
        assert held == dealt
        assert result.counts == game.counts()
        assert result.pile == len(game.table)
        assert result.number == game.cards_played
        assert result.tricks == game.tricks
        if result.owed:  # a court card is being paid for, by the other seat
            assert result.owed_for is not None
            assert result.to_move != game.court_seat
            assert result.owed <= VALUE_OF[result.owed_for]
        if VALUE_OF[result.card] and game.outcome is None:
            assert (result.owed, result.to_move) == (VALUE_OF[result.card], 1 - result.seat)
    assert game.over
    if game.outcome is Outcome.WIN:
        assert game.winner is not None
        assert game.reason is Reason.ALL_CARDS
        assert game.counts()[game.winner] == sum(dealt.values())
        assert not game.table
    else:
        assert game.reason is Reason.CYCLE
        assert game.cycle is not None


@FAST
@given(piles=ANY_DEAL)
def test_step_by_step_and_fast_path_agree(piles: list[list[Card]]) -> None:
    fast = play_beggar_fast(piles)
    by_card = BeggarGame(piles)
    while not by_card.over:
        by_card.put_down()
    by_trick = BeggarGame(piles)
    tricks = by_trick.play_to_end()
    assert summarize_beggar(by_card) == fast == summarize_beggar(by_trick)
    assert [list(p) for p in by_card.piles] == [list(p) for p in by_trick.piles]
    assert len(tricks) == fast.tricks
    assert sum(len(t.cards) for t in tricks) == fast.cards_played
    assert sum(fast.final_counts) == len(piles[0]) + len(piles[1])


@FAST
@given(piles=ANY_DEAL)
def test_a_trick_goes_under_the_takers_pile_in_the_order_played(piles: list[list[Card]]) -> None:
    game = BeggarGame(piles)
    while not game.over:
        trick = game.play_trick()
        pile = list(game.piles[trick.taker])
        assert pile[len(pile) - len(trick.cards):] == list(trick.cards)
        assert trick.seats[0] == trick.starter
        assert len(trick.seats) == len(trick.cards)
        assert trick.counts == game.counts()


@FAST
@given(piles=ANY_DEAL, data=st.data())
def test_only_the_notation_matters(piles: list[list[Card]], data: st.DataObject) -> None:
    """Swap cards for others of the same value (10.1): the same game, the same counts."""
    by_value: dict[int, list[Card]] = {}
    for c in range(52):
        by_value.setdefault(VALUE_OF[c], []).append(Card(c))
    used = piles[0] + piles[1]
    swap: dict[Card, Card] = {}
    for value, cards in by_value.items():
        mine = [c for c in used if VALUE_OF[c] == value]
        others = data.draw(st.permutations(cards))[: len(mine)]
        swap.update(zip(mine, others, strict=True))
    relabelled = [[swap[c] for c in p] for p in piles]
    assert play_beggar_fast(relabelled) == play_beggar_fast(piles)


@settings(max_examples=60, deadline=None)
@given(piles=patterned_deals())
def test_a_cycle_really_repeats(piles: list[list[Card]]) -> None:
    summary = play_beggar_fast(piles)
    cycle = summary.cycle
    assert cycle is not None
    assert summary.reason is Reason.CYCLE
    assert summary.winner is None
    assert cycle.start_trick + cycle.length_tricks == summary.tricks
    assert cycle.start_cards + cycle.length_cards == summary.cards_played
    game = BeggarGame(piles)
    for _ in range(cycle.start_trick):
        game.play_trick()
    start = (game.notation(), game.to_move)
    while not game.over:
        game.play_trick()
    assert (game.notation(), game.to_move) == start


@settings(max_examples=40, deadline=None)
@given(seed=st.text(max_size=8))
def test_records_with_and_without_log_agree(seed: str) -> None:
    setup = BeggarSetup.from_seed(seed)
    plain = beggar_json(setup)
    logged = beggar_json(setup, log=True)
    log = logged.pop("log")
    assert logged == plain
    assert len(log) == plain["tricks"]
    assert log[-1]["cards_played"] == plain["cards_played"]
    assert log[-1]["reason"] == plain["reason"]
    assert log[-1]["counts"] == plain["final_counts"]
    dealt = [card_text(c) for p in setup.piles for c in p]
    played = [c for t in log for c in t["cards"]]
    assert set(played) <= set(dealt)
    assert sum(plain["final_counts"]) == 52


@FAST
@given(piles=ANY_DEAL, data=st.data())
def test_a_copy_plays_on_alone(piles: list[list[Card]], data: st.DataObject) -> None:
    game = BeggarGame(piles)
    for _ in range(data.draw(st.integers(min_value=0, max_value=40))):
        if game.over:
            break
        game.put_down()
    before = ([list(p) for p in game.piles], list(game.table), game.cards_played, game.tricks)
    copy = game.copy()
    while not copy.over:
        copy.put_down()
    assert ([list(p) for p in game.piles], list(game.table), game.cards_played,
            game.tricks) == before
    while not game.over:
        game.put_down()
    assert summarize_beggar(game) == summarize_beggar(copy) == play_beggar_fast(piles)
