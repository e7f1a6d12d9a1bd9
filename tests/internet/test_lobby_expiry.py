"""Lobbies expire from their last activity, and an expired link says so
(issue 24, item 7).

* Expiry counts from the last activity (created, joined, a page opened or
  closed, a page still open), not from creation.
* A lobby past its time is not served even before the sweep removes it.
* An expired link gives 410, the translated "This game has expired" page with
  "Start a new game" (an unknown id stays the 404 of a game that never was).
* A ``start`` for a lobby removed meanwhile is answered (an error frame).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from play.helpers import create, join, make_client, until, ws
from sqlalchemy import text

from cardwar.tables.retention import Retention

TTL = 3600.0


def _age(c, gid: str, hours: float) -> None:
    """Make ``gid`` look created (and last active) ``hours`` ago, as if time passed."""
    service = c.app.state.tables
    then = datetime.now(UTC) - timedelta(hours=hours)

    async def back() -> None:
        async with service.store.engine.begin() as conn:
            await conn.execute(text("UPDATE games SET created_at = :t, updated_at = :t "
                                    "WHERE id = :id"), {"t": then, "id": gid})
        service.cache.drop(gid)
        service._active.pop(gid, None)

    c.portal.call(back)


def _sweep(c, later: float = 0.0) -> int:
    """Sweep as if ``later`` hours from now."""
    service = c.app.state.tables
    sweep = Retention(service.store, service.cache, service.settings).sweep
    return c.portal.call(sweep, datetime.now(UTC) + timedelta(hours=later))


def test_a_lobby_expires_from_its_last_activity_not_its_creation(tmp_path):
    with make_client(tmp_path, lobby_ttl=TTL) as c:
        joined, _ = create(c)
        idle, _ = create(c)
        _age(c, joined, 0.9)
        _age(c, idle, 0.9)
        join(c, joined, "Bob")  # joined a moment before its hour was up: an hour more
        assert _sweep(c, later=0.5) == 1  # 1.4 hours after both were created
        assert c.get(f"/en/g/{joined}").status_code == 200
        assert c.get(f"/en/g/{idle}").status_code == 410


def test_a_lobby_with_a_page_open_does_not_expire(tmp_path):
    with make_client(tmp_path, lobby_ttl=TTL) as c:
        gid, s0 = create(c)
        with ws(c, gid, s0) as ann:
            ann.receive_json()
            _age(c, gid, 2)  # two hours with her page open
            service = c.app.state.tables
            assert service.open_lobbies() == [gid]
            c.portal.call(service.store.touch, service.open_lobbies())  # what the sweeper does
            assert _sweep(c) == 0
            ann.send_json({"type": "start"})  # still hers to start (with the computer)
            until(ann, "started")


def test_an_expired_lobby_is_not_served_even_before_the_sweep(tmp_path):
    with make_client(tmp_path, lobby_ttl=TTL) as c:
        gid, _s0 = create(c)
        _age(c, gid, 2)
        page = c.get(f"/it/g/{gid}")
        assert page.status_code == 410
        assert "Questa partita è scaduta" in page.text
        assert 'href="/it/#play"' in page.text
        assert "Inizia una nuova partita" in page.text
        r = c.post(f"/en/g/{gid}/join", data={"nickname": "Bob"},
                   headers={"origin": "http://testserver"}, follow_redirects=False)
        assert r.status_code == 410
        assert c.get("/en/g/no-such-game").status_code == 404  # never was: not "expired"
        _sweep(c)
        assert c.get(f"/en/g/{gid}").status_code == 410  # removed: still "expired"
        assert c.get("/en/g/no-such-game").status_code == 404


def test_a_start_for_a_removed_lobby_gets_an_answer(tmp_path):
    with make_client(tmp_path, lobby_ttl=TTL) as c:
        gid, s0 = create(c)
        service = c.app.state.tables
        with ws(c, gid, s0) as ann:
            ann.receive_json()

            async def removed() -> None:  # the sweep of another process
                await service.store.retire([gid])
                service.cache.drop(gid)

            c.portal.call(removed)
            ann.send_json({"type": "start"})
            assert until(ann, "error")["code"] == "no_game"
