"""A kind of play in which any seated player may act at any moment, added by
this file alone: "first to press wins the card".

It is registered (a variant, its :class:`~cardwar.tables.kinds.Kind`, its step
event) and played through the engine game, a table, two table services over
the in-memory bus (one plays, the other follows: the remote apply), and the
game page's reducer (cardwar/web/static/play/state.js, run by node). No other
file knows about it: the seam the slap games' online play goes through.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Literal, TypedDict

import pytest

from cardwar.engine import Outcome, Reason, Variant, register, unregister
from cardwar.settings import Settings
from cardwar.store import Store
from cardwar.tables import TableError, TableService
from cardwar.tables.errors import ErrorCode
from cardwar.tables.events import EVENTS, Event, EventSpec, step_apply
from cardwar.tables.kinds import KINDS, StepKind, register_kind
from cardwar.tables.records import GameRecord

from .memory_bus import MemoryHub

pytestmark = pytest.mark.anyio
ROOT = Path(__file__).resolve().parents[2]


class PressGame:
    """The engine: a row of cards in the middle; each step, the first seat to
    press takes the next one. Over when the row is empty: most cards wins."""

    def __init__(self, row: list[int], players: int) -> None:
        self.row, self.taken = row, [0] * players
        self.outcome: Outcome | None = None
        self.reason: Reason | None = None
        self.winner: int | None = None

    @property
    def over(self) -> bool:
        return self.outcome is not None

    def counts(self) -> tuple[int, ...]:
        return tuple(self.taken)

    def copy(self) -> PressGame:
        other = PressGame(list(self.row), len(self.taken))
        other.taken = list(self.taken)
        other.outcome, other.reason, other.winner = self.outcome, self.reason, self.winner
        return other

    def press(self, seat: int) -> int:
        card = self.row.pop(0)
        self.taken[seat] += 1
        if not self.row:
            best = max(self.taken)
            leaders = [s for s, n in enumerate(self.taken) if n == best]
            self.reason = Reason.ALL_CARDS
            self.outcome = Outcome.WIN if len(leaders) == 1 else Outcome.DRAW
            self.winner = leaders[0] if len(leaders) == 1 else None
        return card


class Pressed(TypedDict):
    """Seat ``seat`` pressed first for step ``step`` and took card ``card``."""

    type: Literal["pressed"]
    seq: int
    step: int
    seat: int
    card: int
    counts: list[int]


class FirstToPress(StepKind[PressGame]):
    """Anyone at any time: every seat may press, the first press plays the step."""

    step = "pressed"
    number = "step"
    refused = ErrorCode.OUT
    anyone = True

    def steps(self) -> int:
        return sum(self.game.taken)

    def to_act(self) -> list[int]:
        return [] if self.game.over else list(range(len(self.game.taken)))

    def play(self, seq: int, acted: list[int]) -> tuple[object, Event]:
        seat = acted[0]
        card = self.game.press(seat)
        event = {"type": "pressed", "seq": seq, "step": self.steps(), "seat": seat,
                 "card": card, "counts": list(self.game.counts())}
        return card, event  # type: ignore[return-value]  # a shape of this file's own

    def view(self, viewer: int | None) -> dict[str, object]:
        g = self.game
        return {"viewer": viewer, "battle": self.steps(), "counts": list(g.counts()),
                "in_play": [True] * len(g.taken), "eliminated": {}, "pot": 0,
                "outcome": None if g.outcome is None else g.outcome.value,
                "reason": None if g.reason is None else g.reason.value, "winner": g.winner}

    def over_data(self) -> dict[str, object]:
        return {"battles": self.steps(), "eliminated": {}}

    def record_json(self, record: GameRecord) -> dict[str, object]:
        return {"variant": record.variant, "seed": record.seed}

    def start_counts(self, record: GameRecord) -> list[int]:
        return [0] * record.players


def _new(record: GameRecord) -> FirstToPress:
    return FirstToPress(PressGame([3, 1, 4], record.players))  # the deal is the same for all


@pytest.fixture
def press() -> Iterator[str]:
    register(Variant(name="press", low_wins=False, face_down=0, face_down_options=(),
                     battle_limit=None, players=(2,), default_players=2, cycle_draw=False,
                     play="toy"))  # type: ignore[arg-type]  # a kind of play of this test's
    register_kind("toy", _new)
    EVENTS["pressed"] = EventSpec(Pressed, step_apply, seats=False)
    yield "press"
    EVENTS.pop("pressed")
    KINDS.pop("toy")
    unregister("press")


def _reduce(messages: list[dict[str, object]]) -> dict[str, object]:
    """The game page's state after ``messages`` (its reducer, run by node)."""
    node = shutil.which("node")
    assert node is not None, "node runs the page's reducer (make jstest needs it too)"
    script = (
        "import { reduce } from './cardwar/web/static/play/state.js';"
        "let s = null;"
        "for (const m of JSON.parse(process.argv[1])) s = reduce(s, m, 0);"
        "console.log(JSON.stringify(s));"
    )
    out = subprocess.run([node, "--input-type=module", "-e", script, json.dumps(messages)],
                         cwd=ROOT, capture_output=True, text=True, timeout=30, check=True)
    return json.loads(out.stdout)


async def test_first_to_press_through_two_processes_and_the_page(tmp_path, press):
    settings = Settings(database=f"sqlite:///{tmp_path / 'games.db'}", flip_timeout=60.0,
                        computer_delay=60.0, gone_after=600.0)
    store = Store(settings.database)
    await store.migrate()
    hub = MemoryHub()
    a = TableService(store, hub.bus("a"), settings)
    b = TableService(store, hub.bus("b"), settings)
    table, _ = await a.create(press, 2, nickname="Ann")
    gid = table.id
    await a.join(gid, "Bob")
    async with a.bus.subscribe(gid), b.bus.subscribe(gid) as page:
        follower = await b.get(gid)
        await a.start(gid, 0)
        start = b.message(follower, 1)  # the page of Bob, served by the other process
        assert follower.to_flip() == [0, 1]  # anyone may press

        assert await a.flip(gid, 1)  # Bob presses first: he takes the 3 at once
        assert await a.flip(gid, 1)  # and again, before Ann: the 1
        assert b.cache.get(gid) is follower
        assert follower.game.counts() == (0, 2)  # followed
        with pytest.raises(TableError):
            await b.flip(gid, 5)  # no such seat: refused like any act out of turn
        assert await b.flip(gid, 0)  # Ann, through the other process: the 4

        leader, follower = await a.get(gid), b.cache.get(gid)
        assert follower.seq == leader.seq
        assert follower.status == leader.status == "over"
        assert follower.game.counts() == leader.game.counts() == (1, 2)
        assert follower.result()["winner"] == 1

        seen: list[dict[str, object]] = []
        for _ in range(100):  # every message the page of Bob was sent by the follower
            message = await asyncio.wait_for(page.next(), 5)
            if message.get("seq") is not None and message["seq"] > start["seq"]:
                seen.append(b.message(follower, 1, message))
            if seen and seen[-1]["type"] == "over":
                break
    assert [m["type"] for m in seen] == ["flipped", "pressed"] * 3 + ["over"]
    assert [m["seat"] for m in seen if m["type"] == "pressed"] == [1, 1, 0]

    state = _reduce([start, *seen])
    assert state["seq"] == leader.seq
    assert state["game"]["counts"] == [1, 2]
    assert state["game"]["battle"] == 3
    assert state["game"]["status"] == "over"
    assert state["game"]["flipped"] == []
    await a.close()
    await b.close()
    await store.close()
