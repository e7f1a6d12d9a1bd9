"""Issue 10, item 5: the "continue on another device" link never puts the seat
secret in a log line (ours or uvicorn's access log) of a real server."""

from __future__ import annotations

import re

import httpx2 as httpx
import pytest

from .server import serving


@pytest.mark.timeout(120)
def test_the_continue_link_secret_is_never_logged(tmp_path):
    with serving(tmp_path) as (base, log):
        origin = {"Origin": base}
        with httpx.Client(base_url=base, timeout=10) as owner:
            r = owner.post("/pl/play", headers=origin, data={
                "variant": "peace", "players": "2", "seat1": "friend", "nickname": "Ann"})
            assert r.status_code == 303
            gid = r.headers["location"].rsplit("/", 1)[1]
            secret = owner.cookies[f"cw_{gid}"]
            page = owner.get(f"/pl/g/{gid}").text
        link = f"{base}/pl/g/{gid}/continue/{secret}"
        assert link in page  # shown to its seat only, on the page itself
        with httpx.Client(timeout=10) as other_device:
            taken = other_device.get(link, follow_redirects=False)
            assert taken.status_code == 303
            assert other_device.cookies[f"cw_{gid}"] == secret
            wrong = other_device.get(f"{base}/pl/g/{gid}/continue/{secret[::-1]}x")
            assert wrong.status_code == 404
            for odd in (f"Continue/{secret}", f"continue//{secret}", f"continue/%2F{secret}",
                        f"CONTINUE%2f{secret}"):  # odd spellings of the link
                other_device.get(f"{base}/pl/g/{gid}/{odd}")
    text = log.read_text()
    assert secret not in text
    assert secret[::-1] not in text
    # the requests were logged, with the key as "-"
    assert len(re.findall(rf"/pl/g/{gid}/continue/-", text)) >= 2, text[-2000:]
