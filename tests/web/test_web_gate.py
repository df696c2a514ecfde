"""`oddstui web` against a real built-in world: the token, the cookie, the Origin, the cap, and a
closed tab leaving nothing behind. Plain HTTP and WebSocket clients here; tests/web/
test_web_browser.py does the same through Chromium."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import InvalidStatus

from tests.waiting import eventually
from tests.web.webserving import WebDesk, desk_socket, read_bytes

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDesk]:
    with WebDesk(tmp_path_factory.mktemp("web"), "--demo", "--sessions", "1") as running:
        first = running.sign_in()
        assert first.status_code == 303, first.text
        running.first_visit = first
        yield running


def test_the_token_becomes_a_strict_http_only_cookie_once(web: WebDesk) -> None:
    # The fixture's visit redirected to the clean address and set the cookie.
    assert web.cookie
    page = web.get("/", web.cookie)
    assert page.status_code == 200
    assert "textual.js" in page.text and web.token not in page.text
    assert "googleapis" not in page.text and "https://" not in page.text  # nothing from outside
    again = web.get(f"/?token={web.token}")  # the token works once
    assert again.status_code == 403 and "set-cookie" not in again.headers
    assert web.get("/?token=not-the-token").status_code == 403
    assert web.get("/").status_code == 403  # no cookie
    assert web.get("/", "a-made-up-cookie").status_code == 403


def test_the_cookie_is_http_only_and_strict_and_the_address_clean(web: WebDesk) -> None:
    assert web.first_visit is not None
    assert web.first_visit.headers["location"] == "/"
    header = web.first_visit.headers["set-cookie"].lower()
    assert "httponly" in header and "samesite=strict" in header and "path=/" in header


@pytest.mark.parametrize(
    ("cookie", "origin"),
    [
        ("", None),  # no cookie
        ("a-made-up-cookie", None),  # a wrong one
        (None, "http://evil.example"),  # the right cookie from another site's page
        (None, "http://127.0.0.1:1"),  # or from another port of this host
    ],
)
async def test_the_websocket_needs_the_cookie_and_the_pages_origin(
    web: WebDesk, cookie: str | None, origin: str | None
) -> None:
    with pytest.raises(InvalidStatus) as refused:
        async with desk_socket(web, cookie, origin):
            pass
    assert refused.value.response.status_code == 403
    assert web.desk_pids() == []


async def test_a_tab_gets_a_desk_on_its_own_relay_key_and_leaves_nothing(web: WebDesk) -> None:
    async with desk_socket(web) as tab:
        assert await read_bytes(tab, 2000) >= 2000  # the desk drew its first screen
        for junk in ("not json", "[]", '{"a": 1}', '["resize", "wide"]', '["stdin", 5]'):
            await tab.send(junk)  # malformed envelopes are skipped, the desk carries on
        await tab.send(b"\x00binary")
        await tab.send(json.dumps(["ping", "after-junk"]))
        assert await pong(tab) == "after-junk"
        [pid] = web.desk_pids()
        eventually(web.status, "the desk's feed on the relay", lambda s: s["relay_feed_clients"])
        assert web.status()["desks"] == 1
        # One past the cap (--sessions 1): the page says so, and the socket is refused.
        full = web.get("/", web.cookie)
        assert full.status_code == 503 and "at most 1 desks" in full.text
        with pytest.raises(InvalidStatus):
            async with desk_socket(web):
                pass
    await asyncio.to_thread(psutil.wait_procs, [psutil.Process(pid)], 5.0)
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    assert web.desk_pids() == []
    status = eventually(web.status, "the relay to drop the key", lambda s: not s["desks"], 5)
    assert status["relay_feed_clients"] == 0


async def pong(tab: ClientConnection) -> object:
    while True:
        frame = await asyncio.wait_for(tab.recv(), 30)
        if isinstance(frame, str) and json.loads(frame)[0] == "pong":
            return json.loads(frame)[1]


@pytest.mark.parametrize(
    ("flags", "named"),
    [
        (("--host", "0.0.0.0"), "--allow-remote"),
        (("--sessions", "0"), "--sessions"),
        (("--sessions", "many"), "--sessions"),
        (("--port", "70000"), "--port"),
        (("--speed", "nan"), "--speed"),
        (("--base-url", "ftp://example.com/v3"), "--base-url"),
    ],
)
def test_a_bad_flag_is_one_line_and_exit_2(
    flags: tuple[str, ...], named: str, tmp_path: Path
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "oddstui", "web", "--port", "0", *flags],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "ODDSTUI_HOME": str(tmp_path), "ODDSTUI_API_KEY": "k-unused"},
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and named in done.stderr
    assert "k-unused" not in done.stderr
