"""Property: no message to any viewer names a card before it is turned face up.

Covers every path a message takes: the initial ``state`` snapshot, the event
history replayed to a reconnecting page (from any ``since``), live events,
error frames and the ephemeral messages (presence, gone, watchers, pings).
Face-down peace cards are named only in the ``battle`` event that resolves
them (the pot is taken when the event exists).
"""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cardwar.tables import Table, TableError, view_message

CARD = re.compile(r"^[2-9TJQKA][CDHS]$")


def cards_named(message: Any) -> set[str]:
    """Every card code a message names (in any string value, split on spaces)."""
    found: set[str] = set()
    stack = [message]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str):
            found.update(t for t in value.replace("/", " ").split() if CARD.match(t))
    return found

EPHEMERAL = [
    {"type": "presence", "seq": None, "seat": 0, "online": True},
    {"type": "gone", "seq": None, "seat": 1, "gone": True},
    {"type": "watchers", "seq": None, "count": 3},
    {"type": "ping", "seq": None},
    {"type": "pong", "seq": None},
    {"type": "error", "seq": None, "code": "bad_message"},
    {"type": "error", "seq": None, "code": "rate_limited"},
]

ops = st.lists(st.one_of(
    st.tuples(st.just("flip"), st.integers(0, 3)),
    st.tuples(st.just("flip_stale"), st.integers(0, 3)),
    st.tuples(st.just("auto"), st.integers(0, 3)),
    st.tuples(st.just("hand_over"), st.integers(0, 3)),
    st.tuples(st.just("relink"), st.integers(0, 3)),
    st.tuples(st.just("reconnect"), st.integers(0, 400)),
    st.tuples(st.just("ephemeral"), st.integers(0, len(EPHEMERAL) - 1)),
), min_size=1, max_size=120)


@settings(max_examples=60, deadline=None)
@given(variant=st.sampled_from(["peace", "war"]), players=st.integers(2, 4),
       seed=st.text(min_size=1, max_size=12), operations=ops)
def test_no_message_to_any_viewer_names_an_unturned_card(variant, players, seed, operations):
    face_down = 1 if variant == "war" and len(seed) % 2 else None
    t = Table.new("g" * 16, variant, players, face_down=face_down, creator="Ann",
                  creator_hash="h0", seed=seed)
    for s in range(1, players):
        t.join(f"P{s}", f"h{s}")
    t.start(0)
    store: list[dict[str, Any]] = list(t.take_outbox())  # every event, as the store keeps them
    revealed: set[str] = set()
    viewers = (None, *range(players))

    def check(message: dict[str, Any]) -> None:
        if t.status == "over":
            return  # the seed (or stacked hands) is shown at the end, on purpose
        assert cards_named(message) <= revealed, message

    for viewer in viewers:
        check(view_message(t, viewer))
    for op, arg in operations:
        seat = arg % players
        try:
            if op == "flip":
                t.flip(seat)
            elif op == "flip_stale":
                t.flip(seat, battle=max(1, t.game.battles))
            elif op == "auto":
                t.set_auto(seat, not t.record.seats[seat].auto_flip)
            elif op == "hand_over":
                t.hand_over(0, seat)
            elif op == "relink":
                t.relink(seat, f"new{arg}")
        except TableError as exc:
            for viewer in viewers:
                check(view_message(t, viewer, {"type": "error", "seq": None,
                                               "code": exc.code}))
        for event in t.take_outbox():
            store.append(event)
            if event["type"] == "battle":
                revealed |= cards_named(event)
            for viewer in viewers:
                check(view_message(t, viewer, event))
        if op == "reconnect":
            since = arg % (t.seq + 2)
            for viewer in viewers:
                check(view_message(t, viewer, online=range(players), gone=[1], watchers=2))
                for event in store:
                    if event["seq"] > since:
                        check(view_message(t, viewer, event))
        elif op == "ephemeral":
            for viewer in viewers:
                check(view_message(t, viewer, EPHEMERAL[arg]))
        if t.status == "over":
            break
    # and the pot never leaks either: the state counts it, it never lists it
    for viewer in viewers:
        state = view_message(t, viewer)
        assert isinstance(state["game"]["pot"], int)
