"""A handshake that a proxy accepts and ends with no HTTP answer means "the service is not there
yet": the client probes and tries again within a second or two, whatever its backoff (issue 33).
The slow proof with a real outage is test_feed_proxy_outage.py."""

from __future__ import annotations

import random
import socket

from oddstui.api.feed import FeedClient
from oddstui.book.oddsbook import OddsBook
from tests.api.feed_harness import Watcher, running, timings, wait_until
from tests.tcp_proxy import TcpProxy


async def test_a_proxy_with_its_service_down_is_probed_not_waited_out() -> None:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        dead_port = free.getsockname()[1]  # nobody listens here once the socket is closed
    watcher = Watcher()
    async with TcpProxy(dead_port) as proxy:
        # A backoff of 30 s and more: without the probe, four handshakes would take a minute.
        client = FeedClient(
            proxy.base_url,
            "k-not-there-yet",
            OddsBook(),
            None,
            rng=random.Random(7),
            on_state_change=watcher,
            timings=timings(backoff_base=30.0, backoff_cap=600.0),
        )
        async with running(client):
            await wait_until(lambda: client.counters.connects >= 4, 15, "four handshakes")
        assert proxy.target_down >= 4
        waits = [d for d in watcher.details if "reconnecting in" in d]
        assert any("sooner once the service answers" in d for d in waits), waits
