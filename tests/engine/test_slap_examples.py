"""RULES.md 11.9: every example of the slap games, exactly, move by move.

Each example is played with its slaps in the order decided
(:func:`play_decided`); the test checks the story the rulebook tells (every
card, slap, burn, taking and player out, as a compact trace) and the counts.
The command line plays the same examples in tests/test_cli_slap.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from cardwar.engine import (
    CardDown,
    CardsBurned,
    Event,
    GameEnded,
    Outcome,
    PileTaken,
    Reason,
    SeatOut,
    SlapJudged,
    SlapRules,
    SlapSetup,
    Step,
    Verdict,
    WindowOpened,
    cards_text,
    parse_hands,
    parse_slaps,
    play_decided,
)


def trace(event: Event) -> str:
    """An event in a few characters: ``0:KC`` (seat 0 put down KC), ``take 0 4 trick``..."""
    if isinstance(event, CardDown):
        return f"{event.seat}:{cards_text([event.card])}"
    if isinstance(event, WindowOpened):
        return f"window {event.taker}"
    if isinstance(event, SlapJudged):
        return f"slap {event.seat}@{event.pile} {event.verdict.value}"
    if isinstance(event, CardsBurned):
        where = "under" if event.to_seat is None else f"to {event.to_seat}"
        return f"burn {cards_text(event.cards)} {where}"
    if isinstance(event, PileTaken):
        return f"take {event.seat} {len(event.cards)} {event.why.value}"
    if isinstance(event, SeatOut):
        return f"out {event.seat}"
    assert isinstance(event, GameEnded)
    return f"end {event.winner}"


def play(hands: str, slaps: str, variant: str = "ers", **options: Any
         ) -> tuple[SlapSetup, list[str], Any]:
    setup = SlapSetup.from_hands(SlapRules.make(variant, **options), parse_hands(hands))
    steps: list[Step] = []
    game = play_decided(setup, parse_slaps(slaps, setup.players), steps.append)
    return setup, [trace(e) for s in steps for e in s.events], game


EXAMPLES = [
    pytest.param(
        "KC 2C 3C / 4D 5D 6D 7D", "", {}, 0, (8, 2, 0, 0),
        # seat 1 pays 4D 5D 6D for the king; seat 0 takes 4 cards (trick 1), puts
        # down 2C, seat 1 puts down 7D and is empty, seat 0 puts down 3C then KC
        # with nobody left to pay and takes the pile (trick 2); seat 1 is out
        ["0:KC", "1:4D", "1:5D", "1:6D", "window 0", "take 0 4 trick",
         "0:2C", "1:7D", "0:3C", "0:KC", "window 0", "take 0 4 unpaid", "out 1", "end 0"],
        id="king-paid-then-nobody-to-pay"),
    pytest.param(
        "9C 9H 2C / QD 3D 4D", "3:1", {}, 1, (8, 1, 1, 0),
        # seat 0 is paying for the queen when 9H makes a sandwich (9C QD 9H);
        # seat 1's slap takes 3 cards and ends the payment
        ["0:9C", "1:QD", "0:9H", "slap 1@3 valid", "take 1 3 slap",
         "1:3D", "0:2C", "1:4D", "1:9C", "1:QD", "window 1", "take 1 5 unpaid", "out 0",
         "end 1"],
        id="sandwich-slap-ends-the-payment"),
    pytest.param(
        "9C 9H 2C / QD 3D 4D", "3:1", {"sandwich": False}, 1, (4, 1, 0, 1),
        # seat 1's slap is wrong and burns 3D; seat 0 completes the payment with 2C
        # and seat 1 takes the trick of 5 cards (the burned one included); seat 0,
        # empty, is out
        ["0:9C", "1:QD", "0:9H", "slap 1@3 wrong", "burn 3D under", "0:2C", "window 1",
         "take 1 5 trick", "out 0", "end 1"],
        id="no-sandwich-wrong-slap-burns"),
    pytest.param(
        "2C 3C 4C / 5D 6D 7D", "2:0", {}, 1, (5, 1, 0, 1),
        # a wrong slap; seat 0 burns 3C
        ["0:2C", "1:5D", "slap 0@2 wrong", "burn 3C under", "0:4C", "1:6D", "1:7D",
         "window 1", "take 1 6 no_cards", "out 0", "end 1"],
        id="wrong-slap-burns-a-card"),
    pytest.param(
        "4C JD 8C / 9D 2S 3S", "3:1,4:0,8:0", {"variant": "slapjack"}, 0, (14, 1, 2, 1),
        # seat 1 takes the jack's pile; seat 0 slaps 2S wrongly and gives 8C to
        # seat 1 (seat 0 is now empty); seat 0 slaps in on the next jack (card 8)
        # and is back
        ["0:4C", "1:9D", "0:JD", "slap 1@3 valid", "take 1 3 slap",
         "1:2S", "slap 0@4 wrong", "burn 8C to 1", "1:3S", "1:4C", "1:9D", "1:JD",
         "slap 0@8 valid", "take 0 5 slap", "0:2S", "1:8C", "0:3S", "0:4C", "0:9D", "0:JD",
         "window 0", "take 0 6 no_cards", "out 1", "end 0"],
        id="slapjack-slapping-in"),
    pytest.param(
        "2C / 2D / 5H", "2:2,2:0", {}, 2, (2, 0, 1, 0),
        # seat 2 takes the double; seat 0's slap comes too late (the pile is gone);
        # seats 0 and 1 were empty when the pile was taken: both out
        ["0:2C", "1:2D", "slap 2@2 valid", "take 2 2 slap", "out 0", "out 1", "end 2",
         "slap 0@2 too_late"],
        id="three-players-double-and-too-late"),
]


@pytest.mark.parametrize(("hands", "slaps", "options", "winner", "counts", "story"), EXAMPLES)
def test_rules_11_9(hands: str, slaps: str, options: dict[str, Any], winner: int,
                    counts: tuple[int, int, int, int], story: list[str]) -> None:
    variant = options.pop("variant", "ers")
    setup, events, game = play(hands, slaps, variant, **options)
    assert events == story
    assert (game.outcome, game.reason, game.winner) == (Outcome.WIN, Reason.ALL_CARDS, winner)
    assert (game.cards_played, game.tricks, game.slaps, game.burned) == counts
    # the winner holds every card in play, and nobody else is left
    assert game.counts()[winner] == sum(len(p) for p in setup.piles)
    assert set(game.out) == set(range(setup.players)) - {winner}


def test_the_too_late_slap_is_judged_as_the_rulebook_says() -> None:
    """Example 6 again: the late slap's verdict is 'too late', not 'out'."""
    setup = SlapSetup.from_hands(SlapRules.make(), parse_hands("2C / 2D / 5H"))
    game = setup.new_game()
    game.put_down()
    game.put_down()
    assert game.slap(2, 2).verdict is Verdict.VALID
    late = game.slap(0, 2)
    assert late.verdict is Verdict.TOO_LATE
    assert late.events == (SlapJudged(0, 2, Verdict.TOO_LATE),)


def test_burned_cards_go_under_the_pile_and_come_first_when_taken() -> None:
    """11.5: a wrong slap puts the slapper's top card face down under the pile (with
    burn 2, the next one under that); the taker gets the pile bottom card first."""
    _, events, game = play("9C 9H 2C / QD 3D 4D 5D", "3:1", sandwich=False, burn=2)
    assert events[:5] == ["0:9C", "1:QD", "0:9H", "slap 1@3 wrong", "burn 3D 4D under"]
    assert cards_text(game.piles[1]) == "5D 4D 3D 9C QD 9H 2C"
    _, _, game = play("9C 9H 2C / QD 3D 4D", "3:1", sandwich=False)  # example 3
    assert cards_text(game.piles[1]) == "4D 3D 9C QD 9H 2C"
