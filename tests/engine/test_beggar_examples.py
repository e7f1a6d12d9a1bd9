"""RULES.md 10.9: every Beggar-my-neighbour example, with its exact counts.

Each deal is played three ways: card by card (:meth:`BeggarGame.put_down`),
trick by trick (:meth:`BeggarGame.play_trick`) and by the fast path
(:func:`play_beggar_fast`); the records (:func:`beggar_json`) agree with them.
The command line is checked in tests/test_cli.py.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from cardwar.engine import (
    BeggarGame,
    BeggarSetup,
    BeggarSummary,
    Card,
    CardError,
    CardResult,
    Cycle,
    GameOverError,
    OptionError,
    Outcome,
    Reason,
    beggar_json,
    cards_text,
    deal,
    parse_beggar_hands,
    parse_card,
    parse_hands,
    play_beggar_fast,
    shuffled_deck,
    summarize_beggar,
)
from cardwar.engine.beggar.fast import play_values
from cardwar.engine.beggar.game import notation

NESSLER = "---AJ--Q---------QAKQJJ-QK / -----A----KJ-K--------A---"
CASELLA = "---K---Q-KQAJ-----AAJ--J-- / ----------Q----KQ-J-----KA"


def by_cards(hands: Sequence[Sequence[Card]]) -> tuple[BeggarGame, list[CardResult]]:
    """Play card by card to the end, checking every card is accounted for."""
    game = BeggarGame(hands)
    total = game.cards_in_play
    results = []
    while not game.over:
        results.append(game.put_down())
        assert sum(len(p) for p in game.piles) + len(game.table) == total
    return game, results


def check_all_ways(
    hands: str, *, winner: int | None, cards: int, tricks: int, cycle: Cycle | None = None
) -> BeggarSummary:
    piles = parse_beggar_hands(hands)
    fast = play_beggar_fast(piles)
    assert (fast.winner, fast.cards_played, fast.tricks) == (winner, cards, tricks)
    assert fast.cycle == cycle
    if winner is None:
        assert (fast.outcome, fast.reason) == (Outcome.DRAW, Reason.CYCLE)
        assert cycle is not None
    else:
        assert (fast.outcome, fast.reason) == (Outcome.WIN, Reason.ALL_CARDS)
        assert fast.final_counts[winner] == sum(len(p) for p in piles)
    game, results = by_cards(piles)
    assert summarize_beggar(game) == fast
    assert [r.number for r in results] == list(range(1, cards + 1))
    assert sum(1 for r in results if r.taken_by is not None) == tricks
    trick_game = BeggarGame(piles)
    trick_results = trick_game.play_to_end()
    assert summarize_beggar(trick_game) == fast
    assert [t.number for t in trick_results] == list(range(1, tricks + 1))
    assert sum(len(t.cards) for t in trick_results) == cards
    takers = [r.taken_by for r in results if r.taken_by is not None]
    assert [t.taker for t in trick_results] == takers
    for record in (beggar_json(BeggarSetup.from_hands(piles)),
                   beggar_json(BeggarSetup.from_hands(piles), log=True)):
        assert record["winner"] == winner
        assert (record["cards_played"], record["tricks"]) == (cards, tricks)
        assert record["reason"] == fast.reason.value
    return fast


def test_nessler_2022_the_longest_known_game() -> None:
    check_all_ways(NESSLER, winner=1, cards=8344, tricks=1164)


def test_casella_2024_the_first_endless_game() -> None:
    summary = check_all_ways(CASELLA, winner=None, cards=474, tricks=66,
                             cycle=Cycle(start_trick=4, start_cards=34,
                                         length_tricks=62, length_cards=440))
    # The position after trick 4 is the one after trick 66, and never before.
    game = BeggarGame(parse_beggar_hands(CASELLA))
    positions = [(game.notation(), game.to_move)]
    while not game.over:
        trick = game.play_trick()
        positions.append((game.notation(), trick.taker))
    assert positions[4] == positions[66]
    assert len(set(positions[:66])) == 66
    assert summary.final_counts == (42, 10)
    assert sum(len(n) for n in positions[66][0]) == 52


def test_seed_war() -> None:
    piles = deal(shuffled_deck("war"), 2)
    assert play_beggar_fast(piles) == BeggarSummary(
        Outcome.WIN, Reason.ALL_CARDS, 1, 21, 177, (0, 52))
    game, _ = by_cards(piles)
    assert (game.winner, game.cards_played, game.tricks) == (1, 177, 21)
    record = beggar_json(BeggarSetup.from_seed("war"))
    assert (record["winner"], record["cards_played"], record["tricks"]) == (1, 177, 21)
    assert record["seating"] == [1, 0]
    assert record["seed"] == "war"


def test_a_cycle_in_the_notation_not_card_for_card() -> None:
    check_all_ways("JC 2C 3C / 4C JD 5C", winner=None, cards=8, tricks=3,
                   cycle=Cycle(start_trick=1, start_cards=2, length_tricks=2, length_cards=6))
    game = BeggarGame(parse_hands("JC 2C 3C / 4C JD 5C"))
    game.play_trick()
    after_one = [cards_text(p) for p in game.piles], game.notation()
    game.play_to_end()
    assert [cards_text(p) for p in game.piles] != after_one[0]
    assert game.notation() == after_one[1]


def test_same_piles_other_starter_is_no_cycle() -> None:
    check_all_ways("JS / 2C 3C 4C 5C JD 6C", winner=1, cards=17, tricks=5)
    game = BeggarGame(parse_hands("JS / 2C 3C 4C 5C JD 6C"))
    seen: dict[tuple[str, str], set[int]] = {game.notation(): {0}}
    while not game.over:
        trick = game.play_trick()
        seen.setdefault(game.notation(), set()).add(trick.taker)
    assert any(len(starters) == 2 for starters in seen.values())


def test_emptying_a_pile_with_a_court_card_is_not_losing() -> None:
    check_all_ways("QS / 2H 3H", winner=0, cards=3, tricks=1)
    _, results = by_cards(parse_hands("QS / 2H 3H"))
    queen, first, last = results
    assert (queen.seat, queen.paying, queen.owed, queen.to_move) == (0, False, 2, 1)
    assert queen.owed_for == parse_card("QS")
    assert queen.counts == (0, 2)
    assert queen.outcome is None  # seat 0 holds nothing, yet is not out
    assert (first.seat, first.paying, first.owed, first.pile) == (1, True, 1, 2)
    assert (last.taken_by, last.taken, last.pile, last.tricks) == (0, 3, 0, 1)
    assert (last.outcome, last.game_winner, last.counts) == (Outcome.WIN, 0, (3, 0))


@pytest.mark.parametrize(("hands", "winner", "cards"), [("2C / 3C", 1, 2), ("2C 4C / 3C", 0, 3)])
def test_out_only_when_a_card_is_due_and_none_is_left(hands: str, winner: int, cards: int) -> None:
    check_all_ways(hands, winner=winner, cards=cards, tricks=1)
    _, results = by_cards(parse_hands(hands))
    last = results[-1]
    # The final taking: the winner takes the table, one trick; to_move is the loser.
    assert (last.taken_by, last.taken, last.to_move, last.tricks) == (winner, cards, 1 - winner, 1)


def test_a_position_that_repeats_the_deal() -> None:
    check_all_ways("2C 3C JC 6C / KC 5C JD 7C", winner=None, cards=16, tricks=4,
                   cycle=Cycle(start_trick=0, start_cards=0, length_tricks=4, length_cards=16))


def test_what_is_owed_card_by_card() -> None:
    """A court card put down while paying passes the debt back (10.4)."""
    _, results = by_cards(parse_hands("2C KC 3C / 4C 5C QD 6C 7C"))
    king = results[2]
    assert (king.seat, king.card, king.owed, king.owed_for, king.to_move) == (
        0, parse_card("KC"), 3, parse_card("KC"), 1)
    paid, queen = results[3:5]
    assert (paid.seat, paid.card, paid.paying, paid.owed, paid.to_move) == (
        1, parse_card("5C"), True, 2, 1)
    # The queen turns up while paying: the payment ends, seat 0 owes 2 for it.
    assert (queen.seat, queen.paying, queen.owed, queen.owed_for, queen.to_move) == (
        1, True, 2, parse_card("QD"), 0)
    # Seat 0 pays the queen with 3C, then has no card for the second: seat 1 wins.
    assert (results[-1].seat, results[-1].taken_by, results[-1].to_move) == (0, 1, 0)
    assert results[-1].owed == 1
    assert results[-1].game_winner == 1
    assert results[-1].counts == (0, 8)
    assert len(results) == 6


def test_notation_gives_cards_deterministically() -> None:
    piles = parse_beggar_hands(NESSLER.lower())
    assert cards_text(piles[0]).startswith("2C 3C 4C AC JC 5C 6C QC")
    assert [notation(p) for p in piles] == [h.strip() for h in NESSLER.split("/")]
    assert sorted(piles[0] + piles[1]) == list(range(52))
    assert BeggarSetup.from_hands(piles).notation() == [h.strip() for h in NESSLER.split("/")]
    spaced = parse_beggar_hands("---AJ --Q --------- QAKQJJ-QK / -----A----KJ-K--------A---")
    assert spaced == piles
    # The same values with any other cards play the same game.
    values = [[("-JQKA".index(ch)) for ch in h.strip()] for h in NESSLER.split("/")]
    assert play_values(*values) == play_beggar_fast(piles)


def test_hands_in_notation_of_any_length() -> None:
    """Puzzles and exercises write short deals in notation: the same game as the cards."""
    short = parse_beggar_hands("--J- / K-J-")
    assert [notation(p) for p in short] == ["--J-", "K-J-"]
    assert cards_text(short[0] + short[1]) == "2C 3C JC 4C KC 5C JD 6C"
    # RULES.md 10.9's last example, written in notation: the same endless game
    cards = play_beggar_fast(parse_hands("2C 3C JC 6C / KC 5C JD 7C"))
    assert play_beggar_fast(short) == cards
    assert cards.cycle is not None
    half = parse_beggar_hands(NESSLER.split("/")[0] + " / -")  # 26 and 1 symbols
    assert [len(p) for p in half] == [26, 1]


def test_a_deck_in_notation_is_a_whole_pack_dealt_26_a_hand() -> None:
    from cardwar.engine import parse_beggar_deck

    first, second = (h.strip() for h in NESSLER.split("/"))
    deck = parse_beggar_deck("".join(a + b for a, b in zip(first, second, strict=True)))
    assert deal(deck, 2) == parse_beggar_hands(NESSLER)
    assert play_beggar_fast(deal(deck, 2)).cards_played == 8344
    assert parse_beggar_deck("2C 3C 4C") == parse_hands("2C 3C 4C")[0]
    for bad, needle in ((NESSLER.replace("/", "")[:-1], "not 51"), ("--J-", "not 4"),
                        (NESSLER.replace("/", "").replace("K", "A", 1), "3 kings")):
        with pytest.raises(CardError, match=needle):
            parse_beggar_deck(bad)


@pytest.mark.parametrize(
    ("text", "error", "needle"),
    [
        ("---AJ--Q---------QAKQJJ-QK / -----A----KJ-K--------A--Q", CardError, "5 queens"),
        ("-" * 30 + " / " + "-" * 7, CardError, "37 plain cards"),
        ("---AJ--Q---------QAKQJJ-QK / -----A----KJ-K--------A---/--", OptionError, "not 3"),
        ("---AJ--Q---------QAKQJJ-QK / 2C", CardError, "both in notation"),
        ("---AJ--Q---------QAKQJJ-QK / ", CardError, "empty"),
        ("JS 2C 3C", OptionError, "not 1"),
        ("JS / 2C / 3C", OptionError, "not 3"),
        ("JS / 2C JS", CardError, "duplicate"),
        ("JS / 2X", CardError, "2X"),
        ("JS / -X-", CardError, "-X-"),
    ],
)
def test_bad_hands(text: str, error: type[Exception], needle: str) -> None:
    with pytest.raises(error, match=needle):
        BeggarSetup.from_hands(parse_beggar_hands(text))


def test_bad_piles_and_play_after_the_end() -> None:
    with pytest.raises(OptionError, match="2 players, not 3"):
        BeggarGame(parse_hands("2C / 3C / 4C"))
    with pytest.raises(ValueError, match="twice"):
        BeggarGame([[parse_card("2C")], [parse_card("2C")]])
    with pytest.raises(ValueError, match="at least one card"):
        BeggarGame([[parse_card("2C")], []])
    with pytest.raises(ValueError, match=r"fewer than|cannot deal"):
        BeggarSetup.from_deck([parse_card("2C")])
    game, _ = by_cards(parse_hands("2C / 3C"))
    with pytest.raises(GameOverError):
        game.put_down()
    with pytest.raises(GameOverError):
        game.play_trick()
    with pytest.raises(ValueError, match="not over"):
        summarize_beggar(BeggarGame(parse_hands("2C / 3C")))


# -- the published record deals (cardwar.engine.beggar.deals) ------------------
PUBLISHED = {  # finder, year -> (cards, tricks) as the record lists give them
    ("Paulhus", 1999): (4791, 670), ("Kleber", 1999): (5790, 805),
    ("Collins", 2006): (6913, 960), ("Mann & Wu", 2007): (7157, 1007),
    ("Nessler", 2012): (7207, 1015), ("Anderson", 2013): (7225, 1016),
    ("Rucklidge", 2014): (7959, 1122), ("Nessler", 2021): (7972, 1106),
    ("Nessler", 2022): (8344, 1164),
}


def test_the_record_deals_give_their_published_counts() -> None:
    from cardwar.engine.beggar.deals import RECORD_DEALS, record_deal, record_results

    results = record_results()
    assert len(results) == len(RECORD_DEALS) >= 10
    for r in results:
        assert record_deal(r["slug"]) is not None
        if (r["finder"], r["year"]) in PUBLISHED:
            assert (r["cards_played"], r["tricks"]) == PUBLISHED[r["finder"], r["year"]]
            assert r["outcome"] == "win"
            assert r["cycle"] is None
    endless = results[-1]
    assert (endless["finder"], endless["year"], endless["reason"]) == ("Casella", 2024, "cycle")
    assert endless["cycle"]["length_tricks"] == 62
    assert len({r["slug"] for r in results}) == len(results)
