"""Issue 11, "Idle is idle": a connected player whose idle clock runs out battle
after battle is marked away; flipping by hand takes the seat back at any
moment, even once the computer has already flipped for it in the coming battle.

Seed ``peace`` seats two players in the lobby's order (RULES.md 9) and lasts
hundreds of battles."""

from __future__ import annotations

from typing import Any

from .helpers import armed, create, join, make_client, sync, until, ws

#: what the tests set: Bob's idle clock runs out fast, twice in a row marks him away
SETTINGS: dict[str, Any] = {"testing_stacked_deck": False, "testing_seed": "peace",
                            "flip_timeout": 0.2, "idle_away": 2}


def _bob_away(w0: Any, w1: Any) -> None:
    """Start the game; Ann flips battles 1 and 2, Bob's clock flips for him: away."""
    w0.send_json({"type": "start"})
    until(w1, "started")
    for n in (1, 2):
        w0.send_json({"type": "flip", "battle": n})
        until(w1, "flipped", seat=1, battle=n, by="timer")
        until(w0, "battle", battle=n)
    assert until(w0, "gone", seat=1)["gone"] is True
    assert until(w1, "gone", seat=1)["gone"] is True


def test_a_tap_takes_an_away_seat_back_after_the_computer_flipped_for_it(tmp_path):
    with make_client(tmp_path, computer_delay=0.3, **SETTINGS) as c:
        gid, s0 = create(c)
        s1 = join(c, gid, "Bob")
        service = c.app.state.tables
        with ws(c, gid, s0) as w0, ws(c, gid, s1) as w1:
            w0.receive_json()
            w1.receive_json()
            _bob_away(w0, w1)
            # battle 3: the computer flips for Bob; Ann takes her time
            until(w1, "flipped", seat=1, battle=3, by="gone")
            seen: list[dict[str, Any]] = []
            w1.send_json({"type": "flip", "battle": 3})  # Bob taps his pile
            assert until(w1, "gone", seen, seconds=5, seat=1)["gone"] is False
            assert until(w0, "gone", seconds=5, seat=1)["gone"] is False
            sync(w1, seen)
            # nothing played twice: his card of battle 3 stays, the battle waits for Ann
            assert not [m for m in seen if m["type"] in ("flipped", "battle", "error")]
            table = service.cache.get(gid)
            assert table.record.flipped == [1]
            assert table.game.battles == 2
            assert service.gone(gid) == set()
            w0.send_json({"type": "flip", "battle": 3})
            until(w1, "battle", battle=3)
            # his idle count starts again: one more timed-out battle is not "in a row"
            w0.send_json({"type": "flip", "battle": 4})
            until(w1, "flipped", seat=1, battle=4, by="timer")
            until(w1, "battle", battle=4)
            # not away: no computer flip armed for him in battle 5 (nor anything else)
            assert armed(c, gid) == 0
            assert service.gone(gid) == set()
            assert table.record.flipped == []


def test_a_hand_flip_that_ends_the_battle_is_not_followed_by_a_computer_flip(tmp_path):
    # Bob, away, flips by hand last in battle 3: battle 4 waits for him again
    with make_client(tmp_path, computer_delay=1.0, **SETTINGS) as c:
        gid, s0 = create(c)
        s1 = join(c, gid, "Bob")
        service = c.app.state.tables
        with ws(c, gid, s0) as w0, ws(c, gid, s1) as w1:
            w0.receive_json()
            w1.receive_json()
            _bob_away(w0, w1)
            w0.send_json({"type": "flip", "battle": 3})
            until(w1, "flipped", seat=0, battle=3)
            w1.send_json({"type": "flip", "battle": 3})  # before the computer would
            assert until(w1, "battle", battle=3)
            assert until(w0, "gone", seconds=5, seat=1)["gone"] is False
            assert armed(c, gid) == 0  # no computer flip for Bob in battle 4
            table = service.cache.get(gid)
            assert table.game.battles == 3
            assert table.record.flipped == []
            assert service.gone(gid) == set()
