"""Connection lifecycle over real sockets: one per key (4000), slow consumers (4008), SIGTERM."""

from __future__ import annotations

import asyncio
import fcntl
import signal
import socket
import struct
import termios
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.service.conftest import Service
from tests.service.test_feed_support import (
    MARKETS,
    Feed,
    has_odds,
    open_feed,
    select_bookmakers,
)

SERVICE_OPTIONS = {"speed": 10, "updates_per_second": 300}
# Twenty football markets: large messages, so a client that stops reading falls behind fast.
WIDE_MARKETS = (
    "ML,Spread,Totals,Team Total Home,Team Total Away,ML HT,Spread HT,Totals HT,ML 2H,Spread 2H,"
    "Totals 2H,Double Chance,Draw No Bet,Corners Spread,Corners Totals,Corners Spread HT,"
    "Corners Totals HT,Bookings Spread,Bookings Totals,Player Props"
)


async def test_a_new_connection_replaces_the_older_one_with_4000(service: Service) -> None:
    older = await open_feed(service, markets=MARKETS)
    newer = await open_feed(service, markets=MARKETS)
    async with newer.socket:
        assert await older.closed() == (4000, "replaced by a newer connection")
        await newer.collect_until(has_odds(3))  # the newer connection streams on


async def test_another_key_is_not_replaced(service: Service) -> None:
    first = await open_feed(service, markets=MARKETS)
    second = await open_feed(service, service.keys.default, markets=MARKETS)
    async with first.socket, second.socket:
        await first.collect_until(has_odds(3))
        await second.collect_until(has_odds(3))


def all_bookmakers(service: Service) -> list[str]:
    books = httpx.get(service.url("/bookmakers"), timeout=30.0).json()
    return [book["name"] for book in books if book["active"]]


STALLED_BUFFER = 16384  # the receive buffer a stalled client asks for (the kernel doubles it)


async def stalled_feed(service: Service, **params: Any) -> Feed:
    """A client that reads nothing: a tiny socket buffer, no compression, no client queue."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, STALLED_BUFFER)
    sock.connect((service.host, service.port))
    sock.setblocking(False)
    options = {"sock": sock, "compression": None, "max_queue": 1}
    return await open_feed(service, connect_options=options, **params)


def unread_bytes(feed: Feed) -> int:
    """Bytes waiting in the client's kernel receive buffer (Linux FIONREAD)."""
    sock = feed.socket.transport.get_extra_info("socket")
    raw = fcntl.ioctl(sock.fileno(), termios.FIONREAD, b"\0\0\0\0")
    return int(struct.unpack("i", raw)[0])


async def test_a_client_that_stops_reading_is_closed_4008_without_stalling_others(
    service_factory: Callable[..., Service], monkeypatch: pytest.MonkeyPatch
) -> None:
    # No byte bound in reach (1 GiB): only the drain rule can close a client here, so the
    # reading one stays open however late the loaded machine lets it read.
    monkeypatch.setenv("ODDSTUI_FEED_QUEUE_LIMIT", str(1 << 30))
    busy = service_factory(speed=10, updates_per_second=3000)
    books = all_bookmakers(busy)
    select_bookmakers(busy, books)
    # The healthy client takes ML of 10 books: a stream a loaded test process reads in time.
    select_bookmakers(busy, books[:10], key=busy.keys.default)
    stalled = await stalled_feed(busy, markets=WIDE_MARKETS)
    healthy = await open_feed(busy, busy.keys.default, markets="ML")
    async with healthy.socket:
        # While the stalled client reads nothing for 10 s, the healthy one keeps receiving,
        # also late in that time, when the other one has long filled every buffer.
        arrivals: list[float] = []
        started = time.monotonic()
        while time.monotonic() - started < 10.0:
            await healthy.next(timeout=30.0)
            arrivals.append(time.monotonic() - started)
        assert len([t for t in arrivals if t >= 5.0]) > 10
        # Reading at last, it gets what the buffers held and then the close the service queued
        # behind it; had the service not closed it by now, reading would keep it open.
        assert await stalled.closed(timeout=30.0, longest=60.0) == (4008, "slow consumer")
        await healthy.collect_until(has_odds(3))  # and it still streams


async def test_sigterm_closes_every_connection_with_1001(
    service_factory: Callable[..., Service],
) -> None:
    ending = service_factory(speed=10)
    odds = await open_feed(ending, markets=MARKETS)
    scores = await open_feed(ending, ending.keys.default, channels="scores,status")
    ending.process.send_signal(signal.SIGTERM)
    closes = await asyncio.gather(odds.closed(), scores.closed())
    assert [code for code, _ in closes] == [1001, 1001]
    assert await asyncio.to_thread(ending.process.wait, 15) == 0
    log = ending.stderr()
    assert "Traceback" not in log
    assert ending.keys.paid not in log and ending.keys.default not in log
