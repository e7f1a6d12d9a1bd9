"""The pure Table: seats, secrets, flips, a full game, what viewers are sent."""

from __future__ import annotations

import json
import re
import shlex

import pytest

from cardwar.cli import main as cli_main
from cardwar.engine import PEACE, WAR, card_text, commitment, seated, seating
from cardwar.tables import (
    NicknameError,
    Table,
    TableError,
    clean_nickname,
    hash_secret,
    new_game_id,
    new_secret,
    replay_command,
    stacked_hands,
    view_message,
)

SEED = "ab" * 32


def _table(players: int = 2, computers: tuple[int, ...] = (), **kw) -> Table:
    kw.setdefault("seed", SEED)
    return Table.new("gid", "peace", players, computers=computers, creator="Ann",
                     creator_hash=hash_secret("s0"), **kw)


def test_ids_and_secrets_are_random_and_hashed():
    ids = {new_game_id() for _ in range(50)}
    assert len(ids) == 50
    assert all(len(i) >= 16 for i in ids)  # >= 96 bits, URL-safe
    assert all(set(i) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
               for i in ids)
    s = new_secret()
    assert len(s) >= 40
    assert hash_secret(s) != s
    assert len(hash_secret(s)) == 64


@pytest.mark.parametrize(("raw", "clean"), [
    ("  Ann  ", "Ann"), ("Zoe\u0301", "Zoé"), ("x" * 24, "x" * 24), ("<b>&", "<b>&"),
    ("Żółć Śnieg", "Żółć Śnieg"),
])
def test_nickname_ok(raw, clean):
    assert clean_nickname(raw) == clean


@pytest.mark.parametrize(("raw", "code"), [
    ("", "empty"), ("   ", "empty"), ("x" * 25, "long"), ("a\u200bb", "bad_char"),
    ("a\x07", "bad_char"), ("a\u202eb", "bad_char"), ("a\nb", "bad_char"),
])
def test_nickname_refused(raw, code):
    with pytest.raises(NicknameError) as err:
        clean_nickname(raw)
    assert err.value.code == code


def test_creation_seats_and_events():
    t = _table(3, computers=(2,))
    events = t.take_outbox()
    assert [(e["type"], e["seq"], e["seat"], e["kind"]) for e in events] == [
        ("joined", 1, 0, "human"), ("joined", 2, 2, "computer")]
    assert t.status == "lobby"
    assert t.open_seats() == [1]
    assert t.record.commitment == commitment(SEED)
    assert t.seat_of(hash_secret("s0")) == 0
    assert t.seat_of(hash_secret("wrong")) is None
    assert t.seat_of(None) is None
    assert all(s.secret_hash != "s0" for s in t.record.seats)


def test_join_start_and_who_may_do_what():
    t = _table(3)
    with pytest.raises(TableError) as err:
        t.join("Ann again", hash_secret("s0"))
    assert err.value.code == "already_seated"
    assert t.join("Bob", hash_secret("s1")) == 1
    with pytest.raises(TableError) as err:
        t.flip(1)
    assert err.value.code == "not_playing"
    with pytest.raises(TableError) as err:
        t.start(1)
    assert err.value.code == "not_creator"
    t.start(0)
    assert [s.kind for s in t.record.seats] == seated(seating(SEED, 3),
                                                       ["human", "human", "computer"])
    assert t.seat_of(hash_secret("s0")) == seating(SEED, 3).index(0)  # the creator's seat
    assert t.creator == t.seat_of(hash_secret("s0"))  # still the creator, wherever drawn
    with pytest.raises(TableError) as err:
        t.join("Cid", hash_secret("s2"))
    assert err.value.code == "not_lobby"
    with pytest.raises(TableError):
        t.start(0)


def test_flips_play_a_battle_when_everyone_has_flipped():
    t = _table(2)
    t.join("Bob", hash_secret("s1"))
    t.start(0)
    t.take_outbox()
    assert t.flip(0) is True
    assert t.flip(0) is False  # a second flip does nothing
    assert t.to_flip() == [1]
    assert t.flip(1, "timer", battle=2) is False  # stale timer
    assert t.flip(1, "timer", battle=1) is True
    types = [e["type"] for e in t.take_outbox()]
    assert types == ["flipped", "flipped", "battle"]
    assert t.record.steps == 1
    assert t.record.flipped == []


@pytest.mark.parametrize(("variant", "players", "face_down"), [
    (PEACE, 2, None), (PEACE, 3, None), (PEACE, 4, None), (WAR, 2, None), (WAR, 2, 1),
    (WAR, 4, 3),
])
def test_stacked_deck_ends_quickly_with_a_tie(variant, players, face_down):
    t = Table.new("gid", variant.name, players, face_down=face_down, creator="A",
                  creator_hash="h", hands=stacked_hands(variant, players))
    t.start(0)
    for _ in range(10):
        if t.status == "over":
            break
        for s in t.to_flip():
            t.flip(s)
    events = t.take_outbox()
    battles = [e for e in events if e["type"] == "battle"]
    assert t.status == "over"
    assert len(battles) <= 3
    assert any(b["peaces"] for b in battles)
    over = events[-1]
    assert over["type"] == "over"
    assert over["outcome"] == "win"
    assert over["winner"] == 0


def test_full_seeded_game_and_replay_command(capsys):
    t = _table(2, computers=(1,))
    t.start(0)
    while t.status != "over":
        for s in t.to_flip():
            t.flip(s)
    over = t.take_outbox()[-1]
    assert over["type"] == "over"
    assert over["seed"] == SEED
    cmd = replay_command(t.record)
    assert cmd == f"cardwar play --variant peace --players 2 --seed {SEED}"
    assert over["command"] == cmd
    capsys.readouterr()
    assert cli_main([*shlex.split(cmd)[1:], "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["battles"] == over["battles"]
    assert record["reason"] == over["reason"]


def test_war_one_face_down_command():
    t = Table.new("gid", "war", 3, face_down=1, creator="A", creator_hash="h", seed=SEED)
    assert replay_command(t.record).endswith("--seed " + SEED + " --face-down 1")


def test_rebuilt_table_is_at_the_same_battle():
    t = _table(2, computers=(1,))
    t.start(0)
    for _ in range(5):
        for s in t.to_flip():
            t.flip(s)
    t.flip(0)
    again = Table(t.record)
    assert again.game.counts() == t.game.counts()
    assert again.game.battles == 5
    assert again.to_flip() == [1]
    assert again.last == t.last


def test_views_keep_the_secrets():
    t = _table(2)
    t.join("<img src=x onerror=alert(1)>", hash_secret("s1"))
    t.start(0)
    piles = [list(p) for p in t.game.piles]
    state = view_message(t, 0)
    text = json.dumps(state)
    assert SEED not in text
    assert "s0" not in text
    assert hash_secret("s0") not in text
    assert state["result"] is None
    assert state["you"] == 0
    for event in t.take_outbox():
        assert SEED not in json.dumps(view_message(t, 1, event))
    # no card is named before it is turned
    t.flip(0)
    t.flip(1)
    battle = view_message(t, None, t.take_outbox()[-1])
    named = {c for c in battle["face_up"] if c}
    for peace in battle["peaces"]:
        named |= {c for d in peace["face_down"] if d for c in d}
        named |= {c for c in peace["face_up"] if c}
    assert named == {card_text(piles[0][0]), card_text(piles[1][0])}  # no tie with this seed
    unturned = {card_text(c) for p in piles for c in p} - named
    state = json.dumps(view_message(t, 0))
    assert not any(f'"{c}"' in state for c in unturned)


def test_view_rejects_unknown_events():
    t = _table(2)
    with pytest.raises(ValueError, match="unknown event type 'secret'"):
        view_message(t, 0, {"type": "secret", "seq": 1})


CARD_TOKEN = re.compile(r'"([2-9TJQKA][CDHS])"')


@pytest.mark.parametrize(("variant", "players", "face_down", "seed"), [
    ("peace", 2, None, "s1"), ("war", 4, 1, "s2"), ("peace", 3, None, "s3"),
])
def test_no_message_names_a_card_before_it_is_turned(variant, players, face_down, seed):
    t = Table.new("gid", variant, players, face_down=face_down, creator="A",
                  creator_hash="h", seed=seed)
    t.start(0)
    revealed: set[str] = set()
    for _ in range(300):
        if t.status == "over":
            break
        for s in t.to_flip():
            t.flip(s)
        for event in t.take_outbox():
            if event["type"] == "battle":
                revealed |= set(CARD_TOKEN.findall(json.dumps(event)))
            for viewer in (None, *range(players)):
                text = json.dumps(view_message(t, viewer, event))
                assert set(CARD_TOKEN.findall(text)) <= revealed
        for viewer in (None, *range(players)):
            state = json.dumps(view_message(t, viewer))
            assert set(CARD_TOKEN.findall(state)) <= revealed
            if t.status != "over":
                assert seed not in state


def test_a_nickname_already_at_the_table_is_refused():
    from cardwar.tables.nicknames import same_name

    t = _table(players=4)
    t.join("Ana", "h1")
    for taken in ("ana", "ANA", " Ana "):
        with pytest.raises(TableError) as err:
            t.join(taken, "h2")
        assert err.value.code == "name_taken"
    assert same_name("Zo\u00e9", "ZOE\u0301")
    assert not same_name("Ana", "Anna")
    assert t.join("Anna", "h2") == 2


def test_a_clone_changes_without_touching_the_original():
    from cardwar.tables.table import Table as _Table

    t = _Table.new("g", "war", 2, creator="Ann", creator_hash="a" * 64, seed="clone")
    t.join("Bob", "b" * 64)
    t.start(0)
    for _ in range(5):
        t.flip(0)
        t.flip(1)
    t.take_outbox()
    before = (t.seq, t.game.battles, t.game.counts(), list(t.record.flipped),
              [s.auto_flip for s in t.record.seats])
    c = t.clone()
    c.set_auto(1, True)
    c.flip(0)
    for _ in range(4):
        c.flip(1)
        c.flip(0)
    assert c.take_outbox()
    assert t.outbox == []
    after = (t.seq, t.game.battles, t.game.counts(), list(t.record.flipped),
             [s.auto_flip for s in t.record.seats])
    assert after == before
    assert c.game.battles == t.game.battles + 4
    assert c.record.flipped == [0]
    # and the clone plays on exactly as the original would have
    t.set_auto(1, True)
    t.flip(0)
    for _ in range(4):
        t.flip(1)
        t.flip(0)
    assert (t.seq, t.game.counts(), t.record.flipped) == (c.seq, c.game.counts(),
                                                          c.record.flipped)
