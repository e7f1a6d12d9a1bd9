"""Issue 10, item 6: one rematch per game, however many times it is asked for
at once; the later requests go to the same new game (no orphan lobbies)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import httpx2 as httpx
from play.helpers import ORIGIN, create, finish, join, make_client, ws


def test_concurrent_rematch_posts_make_one_new_game(tmp_path):
    with make_client(tmp_path, computer_delay=0.001) as c:
        gid, s0 = create(c)  # two friends: their rematch waits in a lobby
        s1 = join(c, gid, "Bob")
        with ws(c, gid, s0) as ann, ws(c, gid, s1) as bob:
            ann.receive_json()
            bob.receive_json()
            finish([ann, bob])
        service = c.app.state.tables

        async def lobbies() -> set[str]:
            later = datetime.now(UTC) + timedelta(days=1)
            return set(await service.store.expired(later, None, 100))

        before = c.portal.call(lobbies)

        async def ask_five_times() -> list[httpx.Response]:
            transport = httpx.ASGITransport(app=c.app)
            async with httpx.AsyncClient(transport=transport,
                                         base_url="http://testserver") as client:
                headers = {**ORIGIN, "cookie": f"cw_{gid}={s0}"}
                return list(await asyncio.gather(*(
                    client.post(f"/en/g/{gid}/rematch", headers=headers) for _ in range(5))))

        answers = c.portal.call(ask_five_times)
        assert [a.status_code for a in answers] == [303] * 5
        places = {a.headers["location"] for a in answers}
        assert len(places) == 1, places
        new = places.pop().rsplit("/", 1)[1]
        assert new != gid
        assert c.portal.call(lobbies) - before == {new}  # no orphan lobby games
        secrets = [a.cookies.get(f"cw_{new}") for a in answers]
        assert sum(s is not None for s in secrets) == 1  # the seat's secret, given once
