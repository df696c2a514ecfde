"""Feed faults the built-in service produces itself: resync_required, a restart, a replaced
connection, refused keys and the hourly REST limit.
"""

from __future__ import annotations

import asyncio

import pytest

from oddstui.api.feed_state import FeedState
from tests.api.feed_harness import (
    RecordingBook,
    Watcher,
    assert_matches_service,
    backoff_periods_pass,
    busy_events,
    feed_client,
    rest,
    running,
    selected,
    streaming,
    wait_until,
)
from tests.api.feed_service import (
    FEED_KEY,
    LEAN_KEY,
    NO_FEED_KEY,
    OTHER_FEED_KEY,
    FeedService,
    service,
    short_window,
)

pytestmark = pytest.mark.timeout(180)
__all__ = ["service", "short_window"]  # module-scoped fixtures: one service each for this file


@pytest.mark.parametrize("resume_from", [1, 10**12], ids=["too-old", "ahead"])
async def test_resync_required_rebuilds_from_a_snapshot(
    short_window: FeedService, resume_from: int
) -> None:
    service = short_window
    async with rest(service) as api:
        ids, books = await busy_events(api), await selected(api)
        await asyncio.sleep(1.2)  # seq 1 is out of the one-second replay window by now
        book, watcher = RecordingBook(), Watcher()
        client = feed_client(
            service.base_url, FEED_KEY, book, api, ids, watcher, last_seq=resume_from
        )
        async with running(client):
            await wait_until(lambda: client.counters.resyncs == 1, what="resync")
            await streaming(client)
            await assert_matches_service(client, book, api, ids, books)
        assert FeedState.RESYNCING in watcher.states
        assert client.counters.connects == 1  # the socket stayed open through it


async def test_service_restart_resyncs_and_resets_the_cursor(short_window: FeedService) -> None:
    service = short_window
    async with rest(service) as api:
        ids, books = await busy_events(api), await selected(api)
        book = RecordingBook()
        client = feed_client(service.base_url, FEED_KEY, book, api, ids)
        async with running(client):
            await streaming(client)
            before = client.last_seq
            assert before is not None
            await asyncio.to_thread(service.restart)
            await wait_until(lambda: client.counters.resyncs == 2, timeout=30, what="resync")
            # The new service's seqs start above the old ones (never reused); the cursor is the
            # new snapshot's seq, not the old one kept.
            assert client.last_seq is not None and client.last_seq > before
            await streaming(client)
            await assert_matches_service(client, book, api, ids, books)
        assert client.counters.reconnects >= 1


async def test_replaced_connection_stops_and_never_ping_pongs(service: FeedService) -> None:
    async with rest(service) as api:
        ids = await busy_events(api)
        first, second = RecordingBook(), RecordingBook()
        old = feed_client(service.base_url, FEED_KEY, first, api, ids)
        async with running(old):
            await streaming(old)
            new = feed_client(service.base_url, FEED_KEY, second, api, ids)
            async with running(new):
                await wait_until(lambda: old.state is FeedState.REPLACED, what="replaced")
                await streaming(new)
                await backoff_periods_pass()  # the old one would have come back by now
                assert old.state is FeedState.REPLACED and new.state is FeedState.LIVE
                assert (old.counters.connects, new.counters.connects) == (1, 1)
                assert "another client" in old.detail


async def test_other_key_does_not_replace(service: FeedService) -> None:
    async with rest(service) as api:
        ids = await busy_events(api)
        one = feed_client(service.base_url, FEED_KEY, RecordingBook(), api, ids)
        two = feed_client(service.base_url, OTHER_FEED_KEY, RecordingBook(), None, ids)
        async with running(one), running(two):
            await streaming(one)
            await streaming(two)
            assert one.counters.connects == two.counters.connects == 1


@pytest.mark.parametrize(
    ("key", "status", "state"),
    [("not-a-key", "401", FeedState.UNAUTHORIZED), (NO_FEED_KEY, "403", FeedState.NOT_IN_PLAN)],
    ids=["401", "403"],
)
async def test_refused_key_stops_with_a_clear_state(
    service: FeedService, key: str, status: str, state: FeedState
) -> None:
    """A bad key is "unauthorized"; a good key without the feed in its plan is "not in plan"."""
    client = feed_client(service.base_url, key, RecordingBook(), None, ())
    async with running(client):
        await wait_until(lambda: client.state is state, what=status)
        await backoff_periods_pass()  # time for retries, which must not come
    assert client.counters.connects == 1
    assert status in client.detail and key not in client.detail and key not in repr(client)


async def test_resyncs_without_rest_budget_stay_stale_with_the_socket_open(
    service: FeedService,
) -> None:
    async with rest(service) as finder, rest(service, LEAN_KEY, max_retries=0) as lean:
        ids = await busy_events(finder, 30)
        book, watcher = RecordingBook(), Watcher()
        client = feed_client(service.base_url, LEAN_KEY, book, lean, ids[:10], watcher)
        async with running(client):
            await streaming(client)
            assert lean.requests_sent == 1
            client.track(ids[:20])  # ten new events: one request, the second of two this hour
            await wait_until(lambda: client.counters.loads == 1, what="load")
            assert client.state is FeedState.LIVE
            client.track(ids)  # ten more: the hourly limit answers 429
            await wait_until(lambda: client.state is FeedState.STALE, what="stale")
            sent = lean.requests_sent
            applied = client.counters.messages
            await backoff_periods_pass()  # a retry loop would have sent more by now
            # ...and the socket still streams: a later message arrives.
            await wait_until(lambda: client.counters.messages > applied, what="more messages")
            assert client.state is FeedState.STALE and "limit" in client.detail
            assert lean.requests_sent == sent == 3  # no retry loop
            assert (client.counters.resyncs, client.counters.loads) == (1, 1)
            assert client.counters.connects == 1  # the socket stayed open
            assert client.counters.messages > applied  # and kept streaming
