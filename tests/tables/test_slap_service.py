"""The slap games at a table and in the service (RULES.md 11): put down, slap from
any seat, the judge's window and trick wait on the service's timers, computer
slaps after their drawn reactions, the record, the replay command, restarts."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import shlex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from waiting import eventually

from cardwar.bus import LocalBus
from cardwar.cli import main as cli_main
from cardwar.engine import OptionError, Verdict
from cardwar.settings import Settings
from cardwar.store import Store
from cardwar.tables import Table, TableError, TableService, slap_kind, view_message
from cardwar.tables.events import follow
from cardwar.tables.records import StoredEvent
from cardwar.tables.replay import game_record
from cardwar.tables.slap_judge import WINDOW
from cardwar.tables.slap_kind import SlapKind, table_options
from cardwar.tables.slap_timers import SlapTimers, computer_played
from cardwar.tables.slap_timing import SlapTiming

HANDS = "2C JC 9H 3S / 2D 4H 8S 6D"


class Clock:
    """A clock a test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _table(clock: Clock, *, hands: str = HANDS, players: int = 2, **options) -> Table:
    t = Table.new("s" * 16, options.pop("variant", "ers"), players, creator="Ann",
                  creator_hash="h0", hands=hands, computers=tuple(range(1, players)),
                  options=table_options(options.pop("v", "ers"), **options))
    t.kind.clock = clock  # type: ignore[attr-defined]
    t.take_outbox()
    t.start(0)
    t.take_outbox()
    return t


def test_the_options_are_the_first_event_and_in_the_snapshot():
    t = Table.new("o" * 16, "ers", 2, creator="Ann", creator_hash="h0", hands=HANDS,
                  options=table_options("ers", sandwich=False, burn=2, slap_in=False))
    events = t.take_outbox()
    assert events[0] == {"type": "options", "seq": 1, "options": {
        "sandwich": False, "marriage": False, "top_bottom": False, "burn": 2,
        "slap_in": False, "card_limit": 10_000, "skill": "normal"}}
    view = t.kind.view(None)
    assert view["options"]["burn"] == 2
    assert view["patterns"] == ["double"]
    assert view["window_ms"] == round(WINDOW * 1000)
    with pytest.raises(OptionError):
        table_options("slapjack", marriage=True)
    with pytest.raises(OptionError):
        table_options("ers", skill="superb")
    with pytest.raises(ValueError, match="no table options"):
        Table.new("p" * 16, "peace", 2, creator="Ann", creator_hash="h0", seed="s",
                  options={"burn": 1})


def test_the_quicker_reaction_takes_the_double_though_it_arrives_later():
    clock = Clock()
    t = _table(clock)
    t.flip(0)
    clock.now += 1.0
    t.flip(1)  # 2D on 2C: a double
    put = t.take_outbox()[-1]
    assert put["type"] == "move"
    assert put["moves"] == [{"move": ["put", 1]}]
    assert put["events"][0]["pattern"] == "double"
    clock.now += 0.31
    timing = SlapTiming(sent=1000, arrived=1400, latency=40, reaction=320)
    assert not slap_kind.slap(t, 0, 2, timing)  # the seat to move: held for the window
    assert t.take_outbox() == []
    clock.now += 0.1
    # the seat that put the card down (not to move), 0.1 s later but quicker
    assert not slap_kind.computer_slap(t, 1, 2, 300)
    clock.now += WINDOW
    assert slap_kind.poll(t)
    decided = t.take_outbox()[-1]
    assert [m["move"] for m in decided["moves"]] == [["slap", 1, 2], ["slap", 0, 2]]
    assert decided["moves"][1]["timing"] == timing.json()
    assert decided["moves"][0]["timing"]["computer"] is True
    assert [e["event"] for e in decided["events"]] == ["slap", "taken", "slap"]
    assert decided["events"][0]["verdict"] == Verdict.VALID
    assert decided["events"][2]["verdict"] == Verdict.TOO_LATE
    assert decided["counts"] == [3, 5]
    assert decided["to_move"] == 1
    kind = t.kind
    assert isinstance(kind, SlapKind)
    assert kind.command_args() == ["--slaps", "2:1"]
    assert kind.judged[1] == {"seat": 0, "pile": 2, "at": 2, "verdict": "too_late",
                              **timing.json()}
    assert kind.judged[0]["reaction"] == 300


class HeldTimers:
    """Timers whose jobs a test runs by hand; cancelling spares a job that fired
    already (it is waiting for the table's lock)."""

    def __init__(self) -> None:
        self.jobs: list = []

    def arm(self, key: str, delay: float, job) -> None:
        self.jobs.append(job)

    def cancel(self, key: str) -> None:
        pass


@pytest.mark.anyio
async def test_a_computer_slaps_a_pile_once_though_its_timer_is_armed_again_meanwhile():
    """The computer's timer on a double fires and waits for the table; a change
    applied meanwhile arms the same slap again. The computer slaps the pile once
    (RULES.md 11.5), not twice: a player saw "… against Computer 2 (821 ms),
    Computer 2 (821 ms)", and the record had the two same slaps."""
    clock = Clock()
    t = _table(clock)
    t.flip(0)
    clock.now += 1.0
    t.flip(1)  # 2D on 2C: a double, pile 2
    kind = t.kind
    assert isinstance(kind, SlapKind)
    (computer,) = [i for i in kind.intents if i.seat == 1]  # every seat draws; 1 is played
    assert computer.pile == 2
    timers = HeldTimers()

    async def apply(game_id: str, action):
        return action(t)

    slaps = SlapTimers(timers, apply, clock)  # type: ignore[arg-type]
    slaps.after(t, [], here=True)  # armed after the card was put down: fires, waits
    slaps.after(t, [], here=True)  # a change meanwhile arms it again
    assert slaps.armed_slaps == 2
    clock.now += computer.reaction / 1000
    for job in timers.jobs:
        await job()
    clock.now += WINDOW
    slap_kind.poll(t)
    assert [(j["seat"], j["pile"]) for j in kind.judged] == [(1, 2)]
    assert kind.command_args() == ["--slaps", "2:1"]


def test_a_wrong_slap_burns_at_once_and_an_empty_pile_slap_changes_nothing():
    clock = Clock()
    t = _table(clock, burn=2)
    assert slap_kind.slap(t, 1, 0, None)  # before the first card: nothing happens
    empty = t.take_outbox()[-1]
    assert empty["events"] == [{"event": "slap", "seat": 1, "pile": 0,
                                "verdict": "empty_pile", "pattern": None}]
    t.flip(0)
    t.take_outbox()
    assert slap_kind.slap(t, 1, 1, None)  # 2C alone: wrong, pushed at once
    wrong = t.take_outbox()[-1]
    assert [e["event"] for e in wrong["events"]] == ["slap", "burned"]
    assert wrong["events"][1] == {"event": "burned", "seat": 1, "to_seat": None, "count": 2}
    assert wrong["counts"] == [3, 2]
    assert wrong["pile"] == 3
    with pytest.raises(TableError) as err:
        slap_kind.slap(t, 1, 5, None)  # a card not put down yet
    assert err.value.code == "bad_message"


def test_a_completed_payment_waits_the_trick_wait_and_nobody_puts_down_meanwhile():
    clock = Clock()
    t = _table(clock, hands="JC 2C / 4H 5H")
    t.flip(0)  # a jack: seat 1 owes one card
    t.flip(1)  # paid: the pile waits for its window, then goes to seat 0
    assert t.kind.to_act() == []
    judge = t.kind.judge  # type: ignore[attr-defined]
    assert judge.due() == pytest.approx(clock.now + slap_kind.TRICK_WAIT)
    assert not slap_kind.poll(t)
    clock.now += slap_kind.TRICK_WAIT
    assert slap_kind.poll(t)
    taken = t.take_outbox()[-1]
    assert taken["moves"] == [{"move": ["close"]}]
    assert taken["events"][0]["why"] == "trick"
    assert taken["counts"] == [3, 1]
    assert t.kind.to_act() == [0]  # the taker leads


def test_the_table_rebuilt_from_its_events_is_the_same_game():
    clock = Clock()
    t = Table.new("r" * 16, "ers", 2, creator="Ann", creator_hash="h0", hands=HANDS,
                  computers=(1,), options=table_options("ers", burn=2))
    t.kind.clock = clock  # type: ignore[attr-defined]
    t.start(0)
    t.flip(0)
    t.flip(1)
    slap_kind.slap(t, 0, 1, None)  # pile 1 (2C alone) is still on the table: wrong
    slap_kind.slap(t, 1, 2, None)
    clock.now += WINDOW
    slap_kind.poll(t)
    t.flip(1)
    events = t.take_outbox()
    record = dataclasses.replace(t.record, history=[
        StoredEvent(e["seq"], e["type"], {k: v for k, v in e.items() if k not in ("type", "seq")})
        for e in events])
    again = Table(record)
    assert again.game.counts() == t.game.counts()
    assert again.game.table == t.game.table
    assert again.kind.steps() == t.kind.steps() == 5
    assert again.kind.decided == t.kind.decided  # type: ignore[attr-defined]
    assert again.kind.intents == t.kind.intents  # type: ignore[attr-defined]
    assert again.kind.options()["burn"] == 2  # type: ignore[attr-defined]
    assert {**again.last_json, "seq": None} == {**t.last_json, "seq": None}  # type: ignore
    with pytest.raises(ValueError, match="load_record"):
        Table(dataclasses.replace(t.record, history=None))


def test_slapjack_at_the_table_a_jack_taken_and_a_wrong_slap_gives_a_card():
    clock = Clock()
    t = Table.new("j" * 16, "slapjack", 3, creator="Ann", creator_hash="h0",
                  hands="JC 2C / 3D 4D / 5H 6H", computers=(1, 2),
                  options=table_options("slapjack", slap_in=False))
    t.kind.clock = clock  # type: ignore[attr-defined]
    t.start(0)
    t.flip(0)  # the jack
    t.flip(1)  # covered by 3D: the jack is still on the table
    assert slap_kind.slap(t, 2, 2, None)  # 3D on top: wrong, pushed at once
    wrong = t.take_outbox()[-1]
    assert wrong["events"][1] == {"event": "burned", "seat": 2, "to_seat": 1, "count": 1}
    assert wrong["counts"] == [1, 2, 1]
    assert not slap_kind.slap(t, 0, 1, None)  # naming the jack: valid, held
    clock.now += WINDOW
    assert slap_kind.poll(t)
    taken = t.take_outbox()[-1]
    assert taken["events"][0]["verdict"] == "valid"
    assert taken["events"][0]["pattern"] == "jack"
    assert taken["counts"] == [3, 2, 1]
    assert t.kind.command_args() == ["--no-slap-in", "--slaps", "2:2,1:0@2"]  # type: ignore


# -- the service: real timers ------------------------------------------------------


async def _service(tmp_path, **kw) -> TableService:
    kw.setdefault("flip_timeout", 30.0)
    kw.setdefault("computer_delay", 0.05)
    settings = Settings(database=f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", **kw)
    store = Store(settings.database)
    await store.migrate()
    return TableService(store, LocalBus(), settings)



@pytest.mark.anyio
async def test_against_the_computer_to_the_end_and_the_command_replays_it(tmp_path, capsys):
    """A sharp computer puts down at the pace and slaps by itself; the human puts
    down when to move and slaps the double at once; the end's command, run, gives
    the same game."""
    service = await _service(tmp_path, testing_stacked_deck=True)
    opts = table_options("ers", skill="sharp", marriage=True)
    table, _ = await service.create("ers", 2, computers=(1,), nickname="Ann", options=opts)
    await service.start(table.id, 0)
    seen: list[dict] = []
    async with service.bus.subscribe(table.id) as sub:
        await service.put(table.id, 0, 1)
        await eventually(lambda: table.game.cards_played == 2, 20.0)  # the computer's 2D: a double
        assert not await service.slap(table.id, 0, 2)  # held for the window
        for _ in range(200):
            if table.status == "over":
                break
            if table.kind.to_act() == [0]:
                await service.put(table.id, 0)
            await asyncio.sleep(0.02)
        assert table.status == "over"
        while not seen or seen[-1]["type"] != "over":  # published once saved
            seen.append(await asyncio.wait_for(sub.get(), 5.0))
    over = seen[-1]
    assert over["type"] == "over"
    moves = [e for e in seen if e["type"] == "move"]
    slaps = [m for e in moves for m in e["moves"] if m["move"][0] == "slap"]
    assert slaps[0]["move"] == ["slap", 0, 2]
    assert over["decided_slaps"].startswith("2:0")
    assert "--marriage" in over["command"]
    assert f"--slaps {over['decided_slaps']}" in over["command"] or "--slaps '" in over["command"]
    record = game_record(table)
    assert record["judged"][0]["seat"] == 0
    assert all({"sent", "arrived", "latency", "reaction"} <= set(j) for j in record["judged"])
    # the command reproduces the game
    argv = [*shlex.split(over["command"])[1:], "--json"]
    assert cli_main(argv) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["final_counts"] == over["final_counts"]
    assert replayed["winner"] == over["winner"]
    assert replayed["cards_played"] == over["battles"]
    await service.close()
    await service.store.close()


@pytest.mark.anyio
async def test_a_restarted_service_carries_on_with_the_same_game(tmp_path):
    service = await _service(tmp_path, testing_stacked_deck=True, computer_delay=30.0)
    table, _ = await service.create("ers", 2, nickname="Ann", options=table_options("ers"))
    _, _ = await service.join(table.id, "Bob")
    await service.start(table.id, 0)
    await service.put(table.id, 0, 1)
    assert not await service.put(table.id, 0, 1)  # stale: ignored
    with pytest.raises(TableError) as err:
        await service.put(table.id, 0)
    assert err.value.code == "not_your_turn"
    await service.put(table.id, 1, 2)
    assert not await service.slap(table.id, 1, 2)  # not to move: held for the window
    await eventually(lambda: table.kind.steps() == 3, 5.0)  # the window's end, on a timer
    await service.settled(table.id)  # and saved
    assert table.game.counts() == (3, 5)
    counts, seq = table.game.counts(), table.seq
    await service.close()
    again = TableService(service.store, LocalBus(), service.settings)
    rebuilt = await again.get(table.id)
    assert rebuilt is not None
    assert rebuilt is not table
    assert rebuilt.game.counts() == counts
    assert rebuilt.seq == seq
    assert rebuilt.kind.decided == table.kind.decided  # type: ignore[attr-defined]
    await again.close()
    await service.store.close()


@pytest.mark.anyio
async def test_a_player_who_leaves_is_played_by_the_computer_slaps_included(tmp_path):
    """Bea leaves: the computer puts her cards down, at no less than the slap window
    after the last one, and slaps the double for her after its drawn reaction."""
    service = await _service(tmp_path, testing_stacked_deck=True, computer_delay=0.0)
    table, _ = await service.create("ers", 2, nickname="Ann", options=table_options("ers"))
    await service.join(table.id, "Bea")
    await service.start(table.id, 0)
    assert not computer_played(table, 1)
    await service.leave(table.id, 1)
    assert computer_played(table, 1)
    assert not computer_played(table, 0)
    assert service.clocks.wait(table) == WINDOW  # the pace's 0 s: no faster than the window
    async with service.bus.subscribe(table.id) as sub:
        await service.put(table.id, 0, 1)
        moves: list[dict] = []
        while not any(m["move"][0] == "slap" for e in moves for m in e["moves"]):
            event = await asyncio.wait_for(sub.get(), 10.0)
            if event["type"] == "move":
                moves.append(event)
    put, double = moves[0], moves[1]
    assert double["moves"] == [{"move": ["put", 1]}]  # the computer put the double down
    slap = moves[-1]
    assert slap["moves"][0]["move"] == ["slap", 1, 2]
    timing = slap["moves"][0]["timing"]
    assert timing["computer"] is True
    assert timing["latency"] == 0
    assert slap["events"][0]["verdict"] == "valid"
    assert put["moves"] == [{"move": ["put", 0]}]
    await service.close()
    await service.store.close()


# -- followed from its events ------------------------------------------------------
_slap_actions = st.lists(
    st.tuples(st.sampled_from(["put", "put", "put", "slap", "slap", "poll", "hand"]),
              st.integers(0, 3), st.integers(0, 60)),
    max_size=150)


def _state(t: Table) -> tuple[object, ...]:
    return (dataclasses.asdict(t.record), t.game.counts(), t.steps, t.game.over, t.last,
            [view_message(t, v) for v in (None, *range(t.record.players))],
            t.kind.decided)  # type: ignore[attr-defined]


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(["ers", "slapjack"]), players=st.integers(2, 4),
       seed=st.text(max_size=6), slap_in=st.booleans(), loaded_at=st.integers(0, 40),
       steps=_slap_actions)
def test_a_slap_game_followed_or_reloaded_from_its_events_is_the_game_played(
        variant, players, seed, slap_in, loaded_at, steps):
    """Whatever is put down, slapped (any seat, any pile), decided or handed over, a
    table following the events, or loaded from them at any point, is the same."""
    clock = Clock()
    leader = Table.new("f" * 16, variant, players, creator="Ann", creator_hash="h0",
                       seed=seed, options=table_options(variant, slap_in=slap_in))
    leader.kind.clock = clock  # type: ignore[attr-defined]
    log: list[dict] = []
    follower: Table | None = None

    def loaded() -> Table:
        history = [StoredEvent(e["seq"], e["type"], {k: v for k, v in e.items()
                                                      if k not in ("type", "seq")})
                   for e in log if e["type"] in ("options", "move")]
        table = Table(dataclasses.replace(
            leader.record, flipped=list(leader.record.flipped), history=history,
            seats=[dataclasses.replace(s) for s in leader.record.seats]))
        table.kind.clock = clock  # type: ignore[attr-defined]
        return table

    def publish() -> None:
        nonlocal follower
        for event in leader.take_outbox():
            log.append(dict(event))
            if follower is not None and not follow(follower, event):
                assert event["type"] in ("joined", "relinked"), event
                follower = loaded()

    for seat in leader.open_seats():
        leader.join(f"P{seat}", f"h{seat}")
    leader.start(0)
    publish()
    for i, (what, seat, pile) in enumerate(steps):
        if i == loaded_at:
            follower = loaded()
        seat %= players
        clock.now += 0.1
        try:
            if what == "put":
                leader.flip(seat)
            elif what == "slap":
                slap_kind.slap(leader, seat, min(pile, leader.game.cards_played), None)
            elif what == "poll":
                clock.now += 1.0
                slap_kind.poll(leader)
            else:
                leader.hand_over(0, seat)
        except TableError:
            pass
        publish()
    if follower is None:
        follower = loaded()
    assert _state(follower) == _state(leader)
    assert _state(loaded()) == _state(leader)
