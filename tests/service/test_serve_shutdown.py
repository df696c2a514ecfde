"""SIGTERM and SIGINT while the world runs at a high update rate and feed clients stream.

The contract (SERVICE.md): every feed connection is closed with 1001 and the process exits 0.
How fast that happens is a figure of benchmarks/service_feed.py, not asserted here.
"""

from __future__ import annotations

import asyncio
import secrets
import signal
from collections.abc import Callable

import httpx
import pytest

from tests.service.conftest import Service
from tests.service.test_feed_connections import (
    STALLED_BUFFER,
    WIDE_MARKETS,
    all_bookmakers,
    stalled_feed,
    unread_bytes,
)
from tests.service.test_feed_support import (
    MARKETS,
    Feed,
    has_odds,
    open_feed,
    select_bookmakers,
)

RATE = 2000  # odds changes a second: the benchmarks' load
CLIENTS = 4


def feed_accounts(count: int) -> tuple[str, list[str]]:
    keys = [f"k-shutdown-{n}-{secrets.token_hex(6)}" for n in range(count)]
    toml = "".join(f'[[account]]\nkey = "{key}"\nplan = "paid"\nfeed = true\n\n' for key in keys)
    return toml, keys


async def streaming(service: Service, keys: list[str]) -> list[Feed]:
    """One client per key, each with every bookmaker selected and odds already arriving."""
    books = all_bookmakers(service)
    feeds = []
    for key in keys:
        select_bookmakers(service, books, key=key)
        feeds.append(await open_feed(service, key, markets=MARKETS))
    for feed in feeds:
        await feed.collect_until(has_odds(20))
    return feeds


def assert_clean_exit(service: Service, keys: list[str]) -> None:
    assert service.process.wait(15) == 0
    log = service.stderr()
    assert "Traceback" not in log, log
    assert keys
    for key in keys:
        assert key not in log


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a_signal_at_a_high_rate_closes_every_client_with_1001_and_exits_0(
    service_factory: Callable[..., Service], signum: signal.Signals
) -> None:
    toml, keys = feed_accounts(CLIENTS)
    busy = service_factory(updates_per_second=RATE, accounts=toml)
    feeds = await streaming(busy, keys)
    # REST traffic in flight as well, so that the stop also meets open HTTP connections.
    with httpx.Client(base_url=busy.base_url, timeout=30.0) as http:
        assert http.get("/sports").status_code == 200
        busy.process.send_signal(signum)
        closes = await asyncio.gather(*(feed.closed(timeout=30.0) for feed in feeds))
    assert closes == [(1001, "service shutting down")] * CLIENTS
    await asyncio.to_thread(assert_clean_exit, busy, keys)


async def test_a_client_that_stopped_reading_does_not_stop_the_others_closing_or_the_exit(
    service_factory: Callable[..., Service], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A bound no test run reaches: the stalled client stays connected (not closed 4008), so the
    # stop meets a socket that never drains and must give up on it.
    monkeypatch.setenv("ODDSTUI_FEED_QUEUE_LIMIT", str(1 << 30))
    monkeypatch.setenv("ODDSTUI_FEED_STALL_LIMIT", "100000")  # nor the drain rule
    toml, keys = feed_accounts(2)
    busy = service_factory(updates_per_second=RATE, accounts=toml)
    select_bookmakers(busy, all_bookmakers(busy), key=keys[0])
    stalled = await stalled_feed(busy, key=keys[0], markets=WIDE_MARKETS)
    (healthy,) = await streaming(busy, keys[1:])
    # The stalled one falls behind: its receive buffer fills, and what the service writes to it
    # from then on stays on the service's side while the healthy one streams on.
    await healthy.collect_until(lambda _: unread_bytes(stalled) >= STALLED_BUFFER, timeout=90.0)
    await healthy.collect_until(has_odds(200))
    busy.process.send_signal(signal.SIGTERM)
    assert await healthy.closed(timeout=30.0) == (1001, "service shutting down")
    await asyncio.to_thread(assert_clean_exit, busy, keys)
    # The feed closes a socket whose writes are paused itself (its close frame queued behind
    # the stuck bytes, the transport aborted later), so uvicorn's "did not close within" give-up
    # is no longer the only way out; the clean, prompt exit above is what matters.
    stalled.socket.transport.abort()
