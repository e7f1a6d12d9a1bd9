"""The event registry: a table followed from its events is the table that played them."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from cardwar.engine import VARIANTS
from cardwar.tables import Table, TableError, view_message
from cardwar.tables.events import EVENTS, apply_event, browser_keys, follow

#: What a follower cannot apply from the message alone (a secret hash is never sent).
NEEDS_RELOAD = {("joined", "human"), ("relinked", None)}

actions = st.lists(
    st.tuples(st.sampled_from(["flip", "flip", "flip", "flip", "auto", "hand", "relink",
                               "rematch"]),
              st.integers(0, 3), st.booleans()),
    max_size=120)


def _state(t: Table) -> tuple[object, ...]:
    record = dataclasses.asdict(t.record)
    return (record, t.game.counts(), t.steps, t.game.over, t.last, t.rematch,
            t.rematch_by, [view_message(t, v) for v in (None, *range(t.record.players))])


def _copy(t: Table) -> Table:
    """What a process that loads the game from the store gets."""
    return Table(dataclasses.replace(t.record, flipped=list(t.record.flipped),
                                     seats=[dataclasses.replace(s) for s in t.record.seats]))


@settings(max_examples=60, deadline=None)
@given(variant=st.sampled_from(sorted(n for n, v in VARIANTS.items() if v.online)),
       players=st.integers(2, 4),
       computers=st.sets(st.integers(1, 3), max_size=3), seed=st.text(max_size=6),
       loaded_at=st.integers(0, 12), steps=actions)
def test_following_the_events_gives_the_table_that_played_them(
        variant, players, computers, seed, loaded_at, steps):
    allowed = VARIANTS[variant].players
    players = allowed[players % len(allowed)]
    leader = Table.new("g" * 16, variant, players, creator="Ann", creator_hash="h0",
                       seed=seed, computers=tuple(s for s in computers if s < players))
    follower: Table | None = None
    followed = 0

    def publish() -> None:
        nonlocal follower, followed
        for event in leader.take_outbox():
            if follower is None:
                continue
            if follow(follower, event):
                followed += 1
            else:  # the cluster loads the game again
                assert (event["type"], event.get("kind") if event["type"] == "joined"
                        else None) in NEEDS_RELOAD, event
                follower = _copy(leader)

    for seat in leader.open_seats():
        leader.join(f"P{seat}", f"h{seat}")
    leader.start(0)
    for i, (what, seat, on) in enumerate(steps):
        if i == loaded_at:
            publish()
            follower = _copy(leader)
        seat %= players
        try:
            if what == "flip":
                leader.flip(seat)
            elif what == "auto":
                leader.set_auto(seat, on)
            elif what == "hand":
                leader.hand_over(0, seat)
            elif what == "relink":
                leader.relink(seat, f"new{i}")
            else:
                leader.offer_rematch(seat, f"rematch{i}")
        except TableError:
            pass
        publish()
    if follower is None:
        follower = _copy(leader)
    assert _state(follower) == _state(leader)
    assert follower.seq == leader.seq


def test_an_event_applies_only_as_the_next_one_and_only_once():
    t = Table.new("g" * 16, "war", 2, creator="Ann", creator_hash="h0", seed="s",
                  computers=(1,))
    t.take_outbox()
    t.start(0)
    started = t.take_outbox()[-1]
    other = Table.new("g" * 16, "war", 2, creator="Ann", creator_hash="h0", seed="s",
                      computers=(1,))
    other.take_outbox()
    assert apply_event(other, {**started, "seq": started["seq"] + 1}) is False
    assert other.status == "lobby"
    assert apply_event(other, started) is True
    assert other.status == "playing"
    assert apply_event(other, started) is False  # once
    assert follow(other, {"type": "presence", "seq": None, "seat": 0}) is False


def test_every_message_type_has_a_shape_and_page_keys():
    for kind, spec in EVENTS.items():
        keys = spec.shape.__annotations__
        assert "type" in keys, kind
        assert "seq" in keys, kind
        assert set(browser_keys(kind)) == set(keys) - {"type", "seq"}
    stored = {k for k, spec in EVENTS.items() if spec.stored}
    assert stored == {"joined", "started", "flipped", "battle", "card", "over", "auto_flip",
                      "handed", "relinked", "rematch", "pace", "fast_forward", "left",
                      "options", "move"}
