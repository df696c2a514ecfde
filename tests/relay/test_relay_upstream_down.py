"""A relay whose upstream is down at its start listens, says `upstream down`, answers REST with
503 (under the desk's own rate-limit headers), and streams once the upstream is up (issue 22,
part 4)."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from tests.api.feed_service import FEED_KEY, LEAN_KEY, SERVICE_FLAGS, FeedService
from tests.relay.relaying import DESK_KEYS, launch_relay
from tests.serving import terminate

pytestmark = pytest.mark.timeout(180)
DESK = DESK_KEYS[0]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def next_message(ws: ClientConnection, wanted: Any, timeout: float) -> dict[str, Any]:
    """The first message `wanted(message)` accepts, reading frames split on newlines."""
    async with asyncio.timeout(timeout):
        while True:
            frame = await ws.recv()
            for line in str(frame).split("\n"):
                message = json.loads(line)
                if wanted(message):
                    return dict(message)


async def test_a_relay_with_its_upstream_down_serves_and_says_so(tmp_path: Path) -> None:
    port = free_port()
    upstream = f"http://127.0.0.1:{port}/v3"
    (tmp_path / "relay").mkdir()
    relay, base = await asyncio.to_thread(launch_relay, upstream, FEED_KEY, tmp_path / "relay")
    service = FeedService(tmp_path, *SERVICE_FLAGS)
    try:
        async with httpx.AsyncClient(timeout=30.0) as http:
            answer = await http.get(f"{base}/events", params={"apiKey": DESK, "sport": "football"})
        assert answer.status_code == 503
        assert "upstream" in answer.json()["error"]
        limit = int(answer.headers["x-ratelimit-limit"])
        assert 0 <= int(answer.headers["x-ratelimit-remaining"]) < limit  # the desk's own count

        url = base.replace("http://", "ws://", 1) + f"/ws?apiKey={DESK}&markets=ML,Totals"
        async with connect(url, open_timeout=30, proxy=None) as ws:
            welcome = await next_message(ws, lambda m: m["type"] == "welcome", 30.0)
            assert welcome["relay"]["upstream"] == "down"
            service.port = port
            await asyncio.to_thread(service.start)
            # The same connection hears the upstream come up, then odds flow.
            await next_message(ws, lambda m: m["type"] == "relay" and m["upstream"] == "live", 60.0)
            # Prices flow again (a bookmaker's message may list no market the relay carries).
            def priced(m: dict) -> bool:
                return m["type"] in ("created", "updated") and bool(m.get("markets"))

            odds = await next_message(ws, priced, 60.0)
            assert odds["markets"]
    finally:
        terminate(relay)
        service.stop()


async def test_the_upstream_keys_429_reaches_desks_as_503_under_their_own_limit(
    tmp_path: Path,
) -> None:
    # The relay's upstream key may make 2 requests an hour: its start and catalog walk use them.
    with FeedService(tmp_path, *SERVICE_FLAGS) as service:
        (tmp_path / "relay").mkdir()
        relay, base = await asyncio.to_thread(
            launch_relay, service.base_url, LEAN_KEY, tmp_path / "relay"
        )
        try:
            async with httpx.AsyncClient(timeout=30.0) as http:
                upstream = await http.get(
                    f"{service.base_url}/events", params={"apiKey": LEAN_KEY, "sport": "tennis"}
                )
                assert upstream.status_code == 429  # the upstream key's hour is spent
                answer = await http.get(
                    f"{base}/events", params={"apiKey": DESK, "sport": "ice-hockey"}
                )
        finally:
            terminate(relay)
    assert answer.status_code == 503
    assert "rate limited" in answer.json()["error"]
    assert int(answer.headers["retry-after"]) > 0
    limit = int(answer.headers["x-ratelimit-limit"])
    assert 0 <= int(answer.headers["x-ratelimit-remaining"]) < limit  # the desk's own count
