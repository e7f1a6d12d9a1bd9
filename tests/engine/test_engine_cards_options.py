"""Card notation (RULES.md section 1), variant options (section 2), the deal
(section 3), the shuffle (section 9) and seat views."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardwar.engine import (
    BEGGAR,
    PACK_SIZE,
    PEACE,
    VARIANTS,
    WAR,
    Card,
    CardError,
    Game,
    GameOverError,
    OptionError,
    Setup,
    card_text,
    cards_text,
    commitment,
    deal,
    get_variant,
    new_seed,
    parse_card,
    parse_cards,
    parse_hands,
    play_fast,
    rank,
    seat_view,
    shuffled_deck,
    simulate,
)

# --- Cards -----------------------------------------------------------------


def test_every_card_round_trips_and_ranks_are_2_low_ace_high() -> None:
    texts = [card_text(Card(i)) for i in range(PACK_SIZE)]
    assert " ".join(texts[:13]) == "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"
    assert texts[13] == "2D"
    assert texts[-1] == "AS"
    assert len(set(texts)) == 52
    for i, t in enumerate(texts):
        assert parse_card(t) == i
        assert parse_card(t.lower()) == i
    assert rank(parse_card("2S")) == 0
    assert rank(parse_card("AH")) == 12


@pytest.mark.parametrize("token", ["10D", "10d", "td", "Td", "tD", "TD"])
def test_ten_accepts_10_and_any_case_and_prints_t(token: str) -> None:
    card = parse_card(token)
    assert card_text(card) == "TD"
    assert cards_text(parse_cards(f"{token} 2c")) == "TD 2C"


@pytest.mark.parametrize("token", ["ZZ", "1D", "11C", "T", "2X", "2CC", "10", "D10", "joker"])
def test_unknown_card_names_the_token(token: str) -> None:
    with pytest.raises(CardError) as err:
        parse_cards(f"2C {token} 3C")
    assert token in str(err.value)
    assert "\n" not in str(err.value)


def test_duplicate_cards_are_errors() -> None:
    with pytest.raises(CardError, match=r"duplicate.*TD"):
        parse_cards("TD 2C 10D")
    with pytest.raises(CardError, match=r"duplicate.*2C"):
        parse_cards("2c 2C")
    with pytest.raises(CardError, match=r"duplicate.*9H"):
        parse_hands("2C 9H / 3C 9h")


@pytest.mark.parametrize("text", ["", "   ", "/", "2C /", "/ 2C", "2C // 3C"])
def test_empty_piles_are_errors(text: str) -> None:
    with pytest.raises(CardError, match="empty"):
        parse_hands(text)


def test_parse_hands_top_card_first() -> None:
    assert parse_hands(" 2c 5D/9H   3s ") == [
        [parse_card("2C"), parse_card("5D")],
        [parse_card("9H"), parse_card("3S")],
    ]


@settings(max_examples=50, deadline=None)
@given(st.permutations(range(PACK_SIZE)), st.integers(min_value=0, max_value=52))
def test_cards_text_round_trip(perm: list[int], n: int) -> None:
    cards = [Card(c) for c in perm[:n]]
    assert parse_cards(cards_text(cards)) == cards
    assert parse_cards(cards_text(cards).lower()) == cards


# --- The deal --------------------------------------------------------------


@pytest.mark.parametrize(("players", "each"), [(2, 26), (3, 17), (4, 13)])
def test_deal_round_the_table_with_leftover_set_aside(players: int, each: int) -> None:
    deck = [Card(i) for i in range(52)]
    piles = deal(deck, players)
    assert [len(p) for p in piles] == [each] * players
    for seat, pile in enumerate(piles):
        assert pile == deck[seat : each * players : players]
    dealt = {c for p in piles for c in p}
    assert set(deck) - dealt == set(deck[each * players :])


def test_deal_needs_a_card_each() -> None:
    with pytest.raises(ValueError, match="cannot deal 1 cards to 2 players"):
        deal([Card(0)], 2)
    assert deal([Card(0), Card(1), Card(2)], 2) == [[Card(0)], [Card(1)]]


# --- Variants and options --------------------------------------------------


def test_variants_are_data() -> None:
    assert set(VARIANTS) == {"peace", "war", "beggar", "ers", "slapjack"}
    # the slap games (RULES.md 11) are rows too, online like the others (issue 27)
    assert all(v.online for v in VARIANTS.values())
    assert {VARIANTS["ers"].play, VARIANTS["slapjack"].play} == {"slaps"}
    assert VARIANTS["ers"].players == (2, 3, 4)
    assert get_variant("peace") is PEACE
    assert get_variant("war") is WAR
    assert get_variant("beggar") is BEGGAR
    assert BEGGAR.play == "turns"
    assert BEGGAR.players == (2,)
    assert BEGGAR.face_down_options == ()
    assert BEGGAR.check(2) == 0
    with pytest.raises(OptionError, match="no ties"):
        BEGGAR.check(2, 1)
    with pytest.raises(OptionError, match="2 players, not 3"):
        BEGGAR.check(3)
    assert PEACE.low_wins
    assert not WAR.low_wins
    assert PEACE.face_down == 5
    assert PEACE.face_down_options == (5,)
    assert WAR.face_down == 3
    assert set(WAR.face_down_options) == {1, 3}
    assert PEACE.battle_limit == 1000
    assert WAR.battle_limit is None
    assert PEACE.players == (2, 3, 4)
    assert WAR.players == (2, 3, 4)
    with pytest.raises(OptionError, match="nope"):
        get_variant("nope")


@pytest.mark.parametrize(
    ("variant", "players", "face_down"),
    [
        (PEACE, 2, 1), (PEACE, 2, 3), (PEACE, 2, 0), (PEACE, 1, None), (PEACE, 5, None),
        (WAR, 2, 2), (WAR, 2, 5), (WAR, 2, 0), (WAR, 1, None), (WAR, 5, None), (WAR, 0, 3),
    ],
)
def test_options_not_allowed_are_rejected(variant, players, face_down) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(OptionError):
        variant.check(players, face_down)
    with pytest.raises(OptionError):
        Setup.from_seed(variant, players, "x", face_down)
    piles = [[Card(i)] for i in range(players)]
    with pytest.raises(OptionError):
        Game(variant, piles, face_down)
    with pytest.raises(OptionError):
        play_fast(variant, piles, face_down)
    with pytest.raises(OptionError):
        simulate(variant, players, 1, face_down=face_down)


def test_allowed_options_are_accepted() -> None:
    assert PEACE.check(3) == 5
    assert PEACE.check(4, 5) == 5
    assert WAR.check(2) == 3
    assert WAR.check(2, 1) == 1
    assert WAR.check(4, 3) == 3
    assert Game(WAR, [[Card(0), Card(1)], [Card(2), Card(3)]], 1).face_down == 1


def test_game_rejects_bad_piles() -> None:
    with pytest.raises(ValueError, match="twice"):
        Game(PEACE, [[Card(0)], [Card(0)]])
    with pytest.raises(ValueError, match="at least one"):
        Game(PEACE, [[Card(0)], []])
    with pytest.raises(ValueError, match="a card appears twice"):
        play_fast(PEACE, [[Card(0), Card(1)], [Card(1)]])
    with pytest.raises(ValueError, match="every seat needs at least one card"):
        play_fast(PEACE, [[], [Card(1)]])


def test_no_battle_after_the_end() -> None:
    game = Game(PEACE, parse_hands("2C / 3C"))
    game.play_to_end()
    with pytest.raises(GameOverError):
        game.play_battle()


# --- Shuffle ---------------------------------------------------------------


def test_shuffle_is_a_permutation_and_seed_sensitive() -> None:
    a = shuffled_deck("a")
    assert sorted(a) == list(range(52))
    assert shuffled_deck("a") == a
    assert shuffled_deck("b") != a
    # No Unicode normalisation: composed and decomposed e-acute are different seeds.
    assert shuffled_deck("\u00e9") != shuffled_deck("e\u0301")
    assert commitment("\u00e9") != commitment("e\u0301")
    seed = new_seed()
    assert re.fullmatch(r"[0-9a-f]{64}", seed)
    assert re.fullmatch(r"[0-9a-f]{64}", commitment(seed))


# --- Seat views ------------------------------------------------------------

CARD_RE = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9TJQKA])[CDHS](?![A-Za-z0-9])", re.IGNORECASE)


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=2, max_value=4), st.sampled_from([PEACE, WAR]), st.data())
def test_seat_view_has_no_cards_and_no_seed(players: int, variant, data) -> None:  # type: ignore[no-untyped-def]
    seed = new_seed()
    setup = Setup.from_seed(variant, players, seed)
    game = setup.new_game()
    steps = data.draw(st.integers(min_value=0, max_value=60))
    viewers = [None, *range(players)]
    for _ in range(steps):
        if game.over:
            break
        game.play_battle()
    for viewer in viewers:
        view = seat_view(game, viewer).to_json()
        text = json.dumps(view)
        assert not CARD_RE.search(text), text
        assert seed not in text
        assert commitment(seed) not in text
        assert set(view) == {
            "viewer", "battle", "counts", "in_play", "eliminated", "pot",
            "outcome", "reason", "winner",
        }
        assert view["viewer"] == viewer
        assert view["battle"] == game.battles
        assert view["counts"] == list(game.counts())
        assert sum(view["counts"]) + view["pot"] == game.cards_in_play
    with pytest.raises(ValueError, match="no seat"):
        seat_view(game, players)


def test_seat_view_after_an_unresolvable_draw_counts_the_pot() -> None:
    game = Game(PEACE, parse_hands("4C / 4D"))
    game.play_battle()
    view = seat_view(game).to_json()
    assert view["pot"] == 2
    assert view["outcome"] == "draw"
    assert view["reason"] == "unresolvable"
    assert not CARD_RE.search(json.dumps(view))
