"""Behind a TCP proxy (a load balancer, an SSH tunnel), the service stops for 25 s: the desk's
feed, the relay's upstream link and the recorder are each live within 5 s of its return (issue
33). The proxy accepts while the service is down, so every handshake fails with no valid HTTP
answer, which must count as "not there yet" (a probe each second), not wait out the backoff.

All three run with the real retry schedule (`FeedTimings()`: backoff up to 45 s).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from oddstui.api.feed import FeedClient, FeedState, FeedTimings
from oddstui.api.feed_url import FeedFilters
from oddstui.api.rest import ApiClient
from oddstui.recording.recorder import Recorder, RecordOptions
from oddstui.relay.relay import Relay
from oddstui.relay.upstream import upstream_client
from oddstui.server.accounts import Accounts
from tests.api.feed_harness import RecordingBook, busy_events, feed_client, running, wait_until
from tests.api.feed_service import FEED_KEY, SERVICE_FLAGS, FeedService
from tests.tcp_proxy import TcpProxy

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]
OUTAGE = 25.0
LIVE_WITHIN = 5.0  # the bound, from the moment the service serves again
RELAY_KEY = "k-relay-up-5e21"
RECORD_KEY = "k-record-9a04"
MARKETS = FeedFilters().markets


@contextlib.asynccontextmanager
async def recording(recorder: Recorder) -> AsyncIterator[None]:
    stop = asyncio.Event()
    task = asyncio.create_task(recorder.run(stop))
    try:
        yield
    finally:
        stop.set()
        await asyncio.wait_for(task, 30.0)


async def test_desk_relay_and_recorder_are_live_soon_after_a_25_s_outage_behind_a_proxy(
    tmp_path: Path,
) -> None:
    service = FeedService(tmp_path, *SERVICE_FLAGS)
    with service.accounts.open("a") as accounts:  # one key each: a key has one feed connection
        for key in (RELAY_KEY, RECORD_KEY):
            accounts.write(f'\n[[account]]\nkey = "{key}"\nplan = "paid"\nfeed = true\n')
    service.start()
    try:
        async with TcpProxy(service.port) as proxy, ApiClient(proxy.base_url, FEED_KEY) as api:
            ids = await busy_events(api)
            desk = feed_client(
                proxy.base_url, FEED_KEY, RecordingBook(), api, ids, timings=FeedTimings()
            )
            relay = Relay(Accounts([]), MARKETS)
            link = upstream_client(relay, proxy.base_url, RELAY_KEY, MARKETS)
            recorder = Recorder(
                RecordOptions(
                    out=tmp_path / "rec", base_url=proxy.base_url, key=RECORD_KEY, markets=MARKETS
                )
            )
            async with running(desk), running(link), recording(recorder):
                await wait_until(lambda: recorder.client is not None, what="the recorder")
                clients: dict[str, FeedClient] = {
                    "desk": desk,
                    "relay": link,
                    "recorder": recorder.client,  # type: ignore[dict-item]
                }

                def all_live() -> bool:
                    return all(c.state is FeedState.LIVE for c in clients.values())

                await wait_until(all_live, 60, "all three live")
                assert relay.upstream_state == FeedState.LIVE.value
                await asyncio.to_thread(service.stop)
                await wait_until(
                    lambda: not any(c.state is FeedState.LIVE for c in clients.values()),
                    30,
                    "all three offline",
                )
                await asyncio.sleep(OUTAGE)
                assert proxy.target_down > 0, "the proxy accepted handshakes and had no service"
                await asyncio.to_thread(service.start)
                back = time.monotonic()
                live_after: dict[str, float] = {}

                def note_live() -> bool:
                    for name, client in clients.items():
                        if name not in live_after and client.state is FeedState.LIVE:
                            live_after[name] = time.monotonic() - back
                    return len(live_after) == len(clients)

                await wait_until(note_live, 60, "all three live again")
                print(", ".join(f"{name} live {s:.1f} s after" for name, s in live_after.items()))
                late = {name: s for name, s in live_after.items() if s > LIVE_WITHIN}
                assert not late, f"live later than {LIVE_WITHIN:g} s after the return: {late}"
                assert relay.upstream_state == FeedState.LIVE.value
    finally:
        service.stop()
