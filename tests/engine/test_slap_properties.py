"""Properties of the slap games (RULES.md 11), on random deals and random moves.

* every card is somewhere: the piles and the table hold all the cards in play
  (52, or 51 with three players) after every move;
* a game replayed from its recorded moves (and from the JSON of them) gives
  the same steps; a computers' game is the same again from its seed, and from
  its decided slaps (:func:`play_decided`);
* one slap per player per pile; a slap that counts for nothing (too late, on
  an empty pile, a second one, by a seat that is out) changes nothing at all;
* without slaps, two-player Egyptian Ratscrew ends as Beggar-my-neighbour does.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cardwar.engine import (
    Card,
    Outcome,
    Pattern,
    PileTaken,
    PutDown,
    Skill,
    Slap,
    SlapGame,
    SlapRules,
    SlapSetup,
    Step,
    Verdict,
    deal,
    move_from_json,
    move_json,
    play_beggar_fast,
    play_computers,
    play_decided,
    shuffled_deck,
)

RULES = st.builds(
    lambda variant, sandwich, marriage, top_bottom, burn, slap_in: SlapRules.make(
        variant, sandwich=sandwich or variant == "slapjack",
        marriage=marriage and variant == "ers", top_bottom=top_bottom and variant == "ers",
        burn=burn if variant == "ers" else 1, slap_in=slap_in, card_limit=400),
    st.sampled_from(["ers", "slapjack"]), st.booleans(), st.booleans(), st.booleans(),
    st.sampled_from([1, 2]), st.booleans())


@st.composite
def deals(draw: st.DrawFn) -> list[list[Card]]:
    """A shuffled pack (or the first cards of one) dealt to 2-4 players by rule 3."""
    players = draw(st.integers(2, 4))
    pack = draw(st.permutations([Card(c) for c in range(52)]))
    size = draw(st.sampled_from([52, 52, 20, 12, players * 2]))
    return deal(pack[:size], players)


def state(game: SlapGame) -> tuple[Any, ...]:
    """Everything a move could change, except the list of moves."""
    return (tuple(map(tuple, game.piles)), tuple(game.table), tuple(game.face_up),
            tuple(game.laid_by), game.to_move, game.owed, game.owed_for, game.court_seat,
            game.window, tuple(sorted(game.out.items())), game.cards_played, game.tricks,
            game.slaps, game.burned, game.outcome, game.winner,
            tuple(game.pattern(p) for p in range(game.cards_played + 1)),
            tuple(s for s in range(game.players) if game.may_slap(s)))


def push_random(game: SlapGame, choices: list[int]) -> list[Step]:
    """Interpret ``choices`` as moves (cards, closes and slaps naming recent piles),
    then put down and close until the game ends; check the cards after every move."""
    steps: list[Step] = []
    total = game.cards_in_play
    for r in choices + [0] * (2 * game.rules.card_limit + 200):
        if game.over and r % 10 < 6:
            break
        if r % 10 < 6:
            steps.append(game.close() if game.window is not None else game.put_down())
        else:
            seat = r // 10 % game.players
            pile = max(0, game.cards_played - r // 100 % 4)
            steps.append(game.slap(seat, pile))
        assert sum(game.counts()) + len(game.table) == total
        assert steps[-1].counts == game.counts()
        assert steps[-1].pile == len(game.table)
    assert game.over
    return steps


@settings(max_examples=60, deadline=None)
@given(piles=deals(), rules=RULES, choices=st.lists(st.integers(0, 10**6), max_size=250))
def test_cards_are_kept_and_a_recorded_game_replays_the_same(
        piles: list[list[Card]], rules: SlapRules, choices: list[int]) -> None:
    game = SlapGame(piles, rules)
    steps = push_random(game, choices)
    if game.outcome is Outcome.WIN:
        assert game.winner is not None
        assert game.counts()[game.winner] == game.cards_in_play
        assert set(game.out) == set(range(game.players)) - {game.winner}
    recorded = [move_from_json(move_json(m)) for m in game.moves]
    again = SlapGame(piles, rules)
    assert [again.push(m) for m in recorded] == steps
    assert state(again) == state(game)
    assert SlapGame.replay(piles, rules, game.moves).moves == game.moves


@settings(max_examples=60, deadline=None)
@given(piles=deals(), rules=RULES, choices=st.lists(st.integers(0, 10**6), max_size=250),
       probe=st.integers(0, 10**6))
def test_slaps_that_count_for_nothing_change_nothing(
        piles: list[list[Card]], rules: SlapRules, choices: list[int], probe: int) -> None:
    game = SlapGame(piles, rules)
    total = game.cards_in_play
    for r in choices:
        if game.over:
            break
        before = state(game)
        if r % 3 == 0:
            step = game.close() if game.window is not None else game.put_down()
            continue
        seat = r // 3 % game.players
        pile = r // 12 % (game.cards_played + 1)
        step = game.slap(seat, pile)
        verdict = step.verdict
        assert verdict is not None
        if not verdict.counts:
            assert state(game) == before, verdict
            continue
        assert sum(game.counts()) + len(game.table) == total
        if verdict is Verdict.VALID:  # the pile named was slappable and still there
            assert any(isinstance(e, PileTaken) and e.seat == seat for e in step.events)
        if not game.over and seat not in game.out:
            # one slap per player per pile: a second one before another card is nothing
            again_before = state(game)
            second = game.slap(seat, game.cards_played if probe % 2 else pile)
            if verdict is Verdict.WRONG:
                assert second.verdict in (Verdict.AGAIN, Verdict.OUT, Verdict.NO_SLAP_IN,
                                          Verdict.TOO_LATE, Verdict.EMPTY_PILE)
            assert state(game) == again_before


@settings(max_examples=40, deadline=None)
@given(piles=deals(), rules=RULES, choices=st.lists(st.integers(0, 10**6), max_size=150))
def test_a_too_late_slap_changes_nothing_even_much_later(
        piles: list[list[Card]], rules: SlapRules, choices: list[int]) -> None:
    game = SlapGame(piles, rules)
    taken_piles: list[int] = []  # piles that were on the table when it was taken
    for r in choices:
        if game.over:
            break
        if r % 4 and taken_piles:
            before = state(game)
            step = game.slap(r % game.players, taken_piles[r // 4 % len(taken_piles)])
            assert step.verdict is Verdict.TOO_LATE
            assert state(game) == before
            continue
        named = game.cards_played
        step = (game.close() if game.window is not None else
                game.slap(r // 4 % game.players, named) if r % 8 == 0 else game.put_down())
        if any(isinstance(e, PileTaken) for e in step.events) and named:
            taken_piles.append(named)


@settings(max_examples=25, deadline=None)
@given(seed=st.text(max_size=8), players=st.integers(2, 4), rules=RULES,
       skills=st.lists(st.sampled_from(list(Skill)), min_size=4, max_size=4))
def test_a_computers_game_is_a_pure_function_of_its_seed(
        seed: str, players: int, rules: SlapRules, skills: list[Skill]) -> None:
    setup = SlapSetup.from_seed(rules, players, seed)
    steps: list[Step] = []
    game, decided = play_computers(setup, skills[:players], steps.append)
    in_play = 51 if players == 3 else 52
    assert game.cards_in_play == in_play
    assert all(sum(s.counts) + s.pile == in_play for s in steps)
    again, decided_again = play_computers(setup, skills[:players])
    assert again.moves == game.moves
    assert decided_again == decided
    # the slaps that counted, as --slaps gives them, play the same game
    replayed = play_decided(setup, decided)
    assert state(replayed) == state(game)
    assert sum(isinstance(m, Slap) for m in replayed.moves) == len(decided)


@settings(max_examples=40, deadline=None)
@given(seed=st.text(max_size=6))
def test_without_slaps_two_player_ers_ends_as_beggar_my_neighbour(seed: str) -> None:
    """10.6 and 11.7 say it differently, but with two players and nobody slapping
    the same player wins (an endless deal: a draw both ways)."""
    deck = shuffled_deck(seed)
    beggar = play_beggar_fast(deal(deck, 2))
    ers = play_decided(SlapSetup.from_deck(SlapRules.make(), 2, deck), [])
    assert ers.winner == beggar.winner
    assert (ers.outcome, beggar.outcome) in ((Outcome.WIN, Outcome.WIN),
                                             (Outcome.DRAW, Outcome.DRAW))


def test_a_game_that_goes_on_is_a_draw_at_the_card_limit() -> None:
    """11.7: the game still going when card 10,001 would be put down is a draw; the
    pile stays on the table and slaps on it come too late."""
    deck = shuffled_deck("endless")  # any deal: nobody slaps, and the limit is 7
    game = SlapGame(deal(deck, 2), SlapRules.make(card_limit=7))
    for _ in range(7):
        while game.window is not None:
            game.close()
        game.put_down()
    while game.window is not None:
        game.close()
    on_table = len(game.table)
    end = game.push(PutDown())
    assert (end.outcome, game.reason.value if game.reason else None) == (Outcome.DRAW,
                                                                       "card_limit")
    assert game.cards_played == 7
    assert len(game.table) == on_table
    assert game.push(Slap(0, 7)).verdict is Verdict.TOO_LATE


def test_patterns_follow_the_table_options() -> None:
    from cardwar.engine import parse_cards, pattern_of

    def on(cards: str, **options: Any) -> Pattern | None:
        return pattern_of(parse_cards(cards), SlapRules.make(**options).patterns)

    assert on("9C 9D") is Pattern.DOUBLE
    assert on("9C QD 9H") is Pattern.SANDWICH
    assert on("9C QD 9H", sandwich=False) is None
    assert on("2C KD QH") is None
    assert on("2C KD QH", marriage=True) is Pattern.MARRIAGE
    assert on("2C QD KH", marriage=True) is Pattern.MARRIAGE
    assert on("5C 2D 3H 5S") is None
    assert on("5C 2D 3H 5S", top_bottom=True) is Pattern.TOP_BOTTOM
    assert on("5C 5S", top_bottom=True) is Pattern.DOUBLE  # two cards: a double, not 11.4's 3
    assert on("JC") is None
    assert on("2C JD", variant="slapjack") is Pattern.JACK
    assert on("9C 9D", variant="slapjack") is None
