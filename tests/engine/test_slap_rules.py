"""The slap games' rules beyond the worked examples (RULES.md 11.3-11.8), the
engine's [clarified] decisions, its errors, and the computer players."""

from __future__ import annotations

from collections import Counter

import pytest

from cardwar.engine import (
    REFLEXES,
    Close,
    Computers,
    GameOverError,
    Intent,
    OptionError,
    PutDown,
    Skill,
    Slap,
    SlapError,
    SlapGame,
    SlapRules,
    SlapSetup,
    Taking,
    Verdict,
    WindowOpened,
    WindowOpenError,
    Words,
    cards_text,
    decide,
    parse_hands,
    parse_skills,
    parse_slaps,
    words_after_seating,
)


def game_of(hands: str, **options: object) -> SlapGame:
    variant = str(options.pop("variant", "ers"))
    return SlapGame(parse_hands(hands), SlapRules.make(variant, **options))  # type: ignore[arg-type]


def test_a_completed_payment_waits_for_the_slap_window() -> None:
    """11.3, 11.6: the trick is taken only when the table closes the window, and a
    valid slap in the window takes the pile instead."""
    game = game_of("JC 5C 9C / 5D 8D")
    game.put_down()  # JC: seat 1 owes 1
    step = game.put_down()  # 5D pays: a trick for seat 0, after the window
    assert step.window == 0
    assert WindowOpened(0, Taking.TRICK) in step.events
    assert step.pile == 2
    assert step.to_move == 0
    with pytest.raises(WindowOpenError):
        game.put_down()
    assert game.close().events[0].why is Taking.TRICK  # type: ignore[union-attr]
    assert game.close().events == ()  # nothing waits any more
    assert cards_text(game.piles[0]) == "5C 9C JC 5D"

    game = game_of("JC 5C 9C / JD 5D 8D")
    game.put_down()
    game.put_down()  # JD pays with a court card: seat 0 owes 1, and JC JD is a double
    assert game.slap(0, 2).verdict is Verdict.VALID
    assert game.window is None
    assert game.to_move == 0
    assert game.owed == 0


def test_an_earlier_slappable_pile_still_on_the_table_can_be_slapped() -> None:
    """11.6: a slap naming an earlier pile that was slappable takes the pile as it is
    now; one naming an earlier pile that was not is wrong."""
    game = game_of("7C 2C 3C / 7D 4D 5D")
    game.put_down()
    game.put_down()  # 7C 7D: a double (pile 2)
    game.put_down()  # 2C: pile 3 is not slappable
    assert game.pattern(2) is not None
    assert game.pattern(3) is None
    step = game.slap(1, 2)
    assert step.verdict is Verdict.VALID
    assert cards_text(game.piles[1]) == "4D 5D 7C 7D 2C"  # the pile as it is now
    game = game_of("7C 2C 3C / 7D 4D 5D")
    for _ in range(4):
        game.put_down()
    assert game.slap(0, 3).verdict is Verdict.WRONG  # pile 3 was not slappable


def test_slapping_in_off_puts_an_empty_player_out_at_once() -> None:
    """11.7 with slapping in off: out on putting down the last card ..."""
    game = game_of("2C / 3D 4D / 5H 6H", slap_in=False)
    step = game.put_down()
    assert game.out == {0: 1}
    assert step.to_move == 1
    assert game.slap(0, 1).verdict is Verdict.OUT


def test_slapping_in_off_keeps_the_player_of_the_last_court_card() -> None:
    """[clarified] ... except the player of the last court card on the pile, who
    may still get it back (as 10.6); a slap by them is refused meanwhile."""
    game = game_of("KC / 2D 3D 4D 5D / 6H 7H", slap_in=False)
    game.put_down()  # KC, seat 0's last card: seat 1 owes 3
    assert game.out == {}
    assert game.owed == 3
    assert game.slap(0, 1).verdict is Verdict.NO_SLAP_IN
    for _ in range(3):
        game.put_down()
    game.close()
    assert game.counts() == (4, 1, 2)
    assert game.out == {}
    game = game_of("KC / 2D QD / 6H 7H", slap_in=False)
    game.put_down()
    game.put_down()
    game.put_down()  # QD: the king is no longer the last court card: seat 0 is out
    assert game.out == {0: 3}


def test_slapping_in_on_an_empty_player_is_out_when_someone_else_takes_the_pile() -> None:
    game = game_of("2C / 3D 4D 5D")
    game.put_down()
    assert game.out == {}
    assert game.may_slap(0)
    assert game.slap(0, 1).verdict is Verdict.WRONG  # an empty player's wrong slap: out
    assert game.out == {0: 1}
    assert game.winner == 1
    assert game.counts() == (0, 4)


def test_slapjack_gives_the_card_to_the_player_of_the_top_card() -> None:
    game = game_of("2C 3C / 4D 5D", variant="slapjack")
    game.put_down()
    game.put_down()  # 4D by seat 1
    step = game.slap(0, 2)
    assert step.verdict is Verdict.WRONG
    assert cards_text(game.piles[1]) == "5D 3C"
    assert game.burned == 1


def test_slapjack_card_for_a_player_who_is_out_goes_under_the_pile() -> None:
    """[clarified] the player of the top card may be out by then."""
    game = game_of("2C / 4D 5D / 6H 7H 8H", variant="slapjack", slap_in=False)
    game.put_down()  # 2C, seat 0's last card: out at once
    assert 0 in game.out
    step = game.slap(1, 1)
    assert step.verdict is Verdict.WRONG
    assert cards_text(game.table) == "4D 2C"
    assert game.counts() == (0, 1, 3)


def test_moves_the_game_cannot_take_are_errors_that_change_nothing() -> None:
    game = game_of("2C 3C / 4D 5D")
    with pytest.raises(SlapError, match="no seat 2"):
        game.slap(2, 0)
    with pytest.raises(SlapError, match="pile 1"):
        game.slap(0, 1)
    with pytest.raises(SlapError, match="not to move"):
        game.push(PutDown(1))
    game.push(PutDown(0))
    assert game.moves == [PutDown(0)]
    assert game.slap(1, 0).verdict is Verdict.EMPTY_PILE
    with pytest.raises(SlapError, match="not a move"):
        game.push("put")  # type: ignore[arg-type]
    while not game.over:
        game.push(Close() if game.window is not None else PutDown())
    with pytest.raises(GameOverError):
        game.put_down()
    with pytest.raises(GameOverError):
        game.close()
    assert game.push(Slap(0, 1)).verdict is Verdict.TOO_LATE


@pytest.mark.parametrize(("variant", "options", "needle"), [
    ("slapjack", {"sandwich": False}, "only a jack"),
    ("slapjack", {"marriage": True}, "only a jack"),
    ("slapjack", {"burn": 2}, "one card"),
    ("ers", {"burn": 3}, "1 or 2"),
    ("ers", {"card_limit": 0}, "at least 1"),
    ("beggar", {}, "not a slap game"),
])
def test_bad_table_options(variant: str, options: dict[str, object], needle: str) -> None:
    with pytest.raises(OptionError, match=needle):
        SlapRules.make(variant, **options)  # type: ignore[arg-type]


def test_options_round_trip() -> None:
    for rules in (SlapRules.make(), SlapRules.make(sandwich=False, marriage=True, burn=2),
                  SlapRules.make("slapjack", slap_in=False)):
        assert SlapRules.from_options(rules.variant, rules.options()) == rules
    assert SlapRules.make("slapjack").options() == {"slap_in": True, "card_limit": 10_000}


def test_parse_slaps() -> None:
    assert [s.text() for s in parse_slaps("3:1, 4:0,5:1@7", 2)] == ["3:1", "4:0", "5:1@7"]
    assert parse_slaps("", 2) == []
    assert parse_slaps("  ", 3) == []
    for bad, needle in (("3;1", "STEP:SEAT"), ("3:2", "no seat 2"), ("5:1@4", "before"),
                        ("3:1,", "STEP:SEAT"), ("-1:0", "STEP:SEAT")):
        with pytest.raises(ValueError, match=needle):
            parse_slaps(bad, 2)


def test_reaction_times_feel_human() -> None:
    """11.8: drawn from the seed, sharp < normal < relaxed, in the documented ranges."""
    words = Words("reflexes")
    for skill, low, high in ((Skill.SHARP, 250, 350), (Skill.NORMAL, 400, 600),
                             (Skill.RELAXED, 600, 900)):
        r = REFLEXES[skill]
        times = sorted(r.reaction(words) for _ in range(4000))
        assert r.base <= times[0]
        assert times[-1] < r.base + 3 * r.spread + r.lapse
        middle = times[len(times) // 5: -len(times) // 5]  # the middle 60%
        assert low <= middle[0], (skill, middle[0], middle[-1])
        assert middle[-1] <= high, (skill, middle[0], middle[-1])
    rates = [REFLEXES[s].wrong_permille for s in (Skill.SHARP, Skill.NORMAL, Skill.RELAXED)]
    assert rates == sorted(rates)
    assert rates[0] > 0
    assert rates[-1] <= 20


def test_computers_draw_after_the_seating_and_slap_every_slappable_pile() -> None:
    words = words_after_seating("peace", 3)
    assert words.counter > 51  # 51 swaps, the seating's 2, and any rejected words
    reference = Words("peace")
    for _ in range(words.counter):
        reference.word()
    assert reference.word() == words.word()
    setup = SlapSetup.from_hands(SlapRules.make(), parse_hands("9C 2C / 9D 3D"))
    game = setup.new_game()
    game.put_down()
    game.put_down()
    intents = Computers(Words("x"), {0: Skill.SHARP, 1: Skill.RELAXED}).react(game)
    assert [i.seat for i in intents] == [0, 1]
    assert all(i.pile == 2 for i in intents)


def test_wrong_slaps_are_rare_and_rarer_with_skill() -> None:
    game = game_of("2C 4C / 3D 5D")
    game.put_down()
    game.put_down()  # 2C 3D: not slappable
    computers = Computers(Words("w"), {0: Skill.SHARP, 1: Skill.RELAXED})
    wrong = Counter(i.seat for _ in range(4000) for i in computers.react(game))
    assert 0 < wrong[0] < wrong[1] < 4000 * 0.04


def test_decide_orders_by_reaction_then_round_the_table() -> None:
    intents = [Intent(0, 5, 300), Intent(1, 5, 300), Intent(2, 5, 299), Intent(3, 5, 300)]
    # equal to the millisecond: the first seat round the table after the putter (seat 1)
    assert [i.seat for i in decide(intents, putter=1, players=4)] == [2, 3, 0, 1]


def test_parse_skills() -> None:
    assert parse_skills("sharp", 3) == [Skill.SHARP] * 3
    assert parse_skills("Sharp, normal", 2) == [Skill.SHARP, Skill.NORMAL]
    with pytest.raises(ValueError, match="unknown skill"):
        parse_skills("fast", 2)
    with pytest.raises(ValueError, match="2 skills for 3"):
        parse_skills("sharp,normal", 3)
