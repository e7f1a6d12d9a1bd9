"""Issue 10, item 2: bounded memory. The table cache has a size and an idle
time, a table that left memory comes back from the store as after a restart,
and an ended game leaves nothing behind in the clocks and presence."""

from __future__ import annotations

import re
import time

from play.helpers import create, finish, join, make_client, until, ws


def tables_by_status(c) -> dict[str, int]:
    found = re.findall(r'^cardwar_tables_in_memory\{status="(\w+)"\} (\S+)$',
                       c.get("/metrics").text, re.M)
    assert found, "no tables-in-memory gauge"
    return {status: int(float(n)) for status, n in found}


def tables_in_memory(c) -> int:
    return sum(tables_by_status(c).values())


def test_the_cache_keeps_at_most_its_size_and_evicted_tables_come_back(tmp_path):
    with make_client(tmp_path, tables_in_memory=3, computer_delay=0.001) as c:
        games = [create(c) for _ in range(6)]
        assert tables_in_memory(c) == 3
        for gid, _ in games:  # each loaded again from the store
            assert c.get(f"/en/g/{gid}").status_code == 200
            assert tables_in_memory(c) <= 3
        # a game evicted between its lobby and its end is played on from the store
        gid, s0 = games[0]
        s1 = join(c, gid, "Bob")
        for other, _ in games[1:]:
            c.get(f"/en/g/{other}")
        assert gid not in c.app.state.tables.cache
        with ws(c, gid, s0) as a, ws(c, gid, s1) as b:
            a.receive_json(), b.receive_json()
            over = finish([a, b])
            assert over["type"] == "over"
        assert c.get(f"/en/g/{gid}/replay").status_code == 200


def test_tables_nobody_uses_leave_after_the_idle_time(tmp_path):
    # idle 1 s: long enough that the page read back from the store is still
    # in memory when /metrics is asked (0.3 s was not, at a load of 20)
    with make_client(tmp_path, table_idle=1.0) as c:
        gid, _ = create(c)
        assert tables_in_memory(c) == 1
        deadline = time.monotonic() + 10
        while tables_in_memory(c) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert tables_in_memory(c) == 0
        assert c.get(f"/en/g/{gid}").status_code == 200  # back from the store
        assert tables_in_memory(c) == 1


def test_an_ended_game_leaves_no_clocks_nor_presence(tmp_path):
    with make_client(tmp_path, computer_delay=0.001) as c:
        service = c.app.state.tables
        for _ in range(3):
            gid, s0 = create(c)
            s1 = join(c, gid, "Bob")
            with ws(c, gid, s0) as a, ws(c, gid, s1) as b, ws(c, gid) as watcher:
                a.receive_json(), b.receive_json(), watcher.receive_json()
                finish([a, b])
                until(b, "over")
        deadline = time.monotonic() + 10
        while (service.clocks.games() or service.presence.games()) and (
                time.monotonic() < deadline):
            time.sleep(0.05)
        assert service.clocks.games() == 0
        assert service.presence.games() == 0


def test_a_table_in_use_stays_past_its_idle_time(tmp_path):
    """Its idle time starts again as it is used (at most every idle/10 s)."""
    with make_client(tmp_path, table_idle=0.5) as c:
        gid, _ = create(c)
        service = c.app.state.tables
        end = time.monotonic() + 1.5
        while time.monotonic() < end:
            assert service.cache.current(gid) is not None, "a table in use left memory"
            time.sleep(0.02)
        deadline = time.monotonic() + 10
        while tables_in_memory(c) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert tables_in_memory(c) == 0
