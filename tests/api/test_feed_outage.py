"""The desk's feed is live again soon after its service comes back from a long outage (issue 22,
part 3): the outage IS the input, so the service is really stopped for 60 s."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from oddstui.api.feed import FeedState
from oddstui.api.rest import ApiClient
from tests.api.feed_harness import (
    RecordingBook,
    Watcher,
    busy_events,
    feed_client,
    running,
    streaming,
    timings,
    wait_until,
)
from tests.api.feed_service import FEED_KEY, SERVICE_FLAGS, FeedService

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]
OUTAGE = 60.0
# Far above the 5 s the probe aims at, far below the backoff this client would wait without it.
LIVE_BOUND = 20.0


async def test_the_feed_is_live_soon_after_a_60_s_outage_of_its_service(tmp_path: Path) -> None:
    service = FeedService(tmp_path, *SERVICE_FLAGS).start()
    try:
        async with ApiClient(service.base_url, FEED_KEY) as api:
            ids = await busy_events(api)
            book, watcher = RecordingBook(), Watcher()
            # A cap of 10 minutes: after a minute of failures the plain backoff would wait tens of
            # seconds more, so only the probe can make the bound below.
            client = feed_client(
                service.base_url,
                FEED_KEY,
                book,
                api,
                ids,
                watcher,
                timings=timings(backoff_base=1.0, backoff_cap=600.0),
            )
            async with running(client):
                await streaming(client)
                await asyncio.to_thread(service.stop)
                await wait_until(lambda: client.state is FeedState.OFFLINE, 30, "offline")
                await asyncio.sleep(OUTAGE)
                waits = [d for d in watcher.details if "reconnecting in" in d]
                assert waits, "the status says when it tries next"
                assert any("sooner once the service answers" in d for d in waits)
                await asyncio.to_thread(service.start)
                back = time.monotonic()
                await wait_until(lambda: client.state is FeedState.LIVE, LIVE_BOUND, "live again")
                print(f"live {time.monotonic() - back:.1f} s after the service was back")
                await streaming(client)
    finally:
        service.stop()
