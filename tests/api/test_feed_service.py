"""Feed faults against the real built-in service (`oddstui serve --port 0`).

Transport faults go through `FaultProxy`, a TCP proxy in front of the service; everything else
(replay, resync_required, snapshots, replaced connections, 401/403, the hourly limit) is the
service's own behaviour. Each recovery test ends on the invariant of `assert_matches_service`:
GET /odds/multi, rolled forward to the client's cursor, equals the book, and no odds message was
applied twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import AsyncIterator, Iterable, Iterator
from typing import Any

import httpx
import pytest

from oddstui.api.feed import FeedClient
from oddstui.api.feed_state import FeedState, FeedStatus
from oddstui.api.feed_thread import FeedThread
from oddstui.api.models import OddsRecord
from oddstui.api.rest import ApiClient
from oddstui.book.oddsbook import OddsBook
from tests.api.fault_proxy import FaultProxy
from tests.api.feed_harness import (
    RecordingBook,
    assert_matches_service,
    running,
    timings,
    wait_until,
)
from tests.api.feed_service import (
    FEED_KEY,
    LEAN_KEY,
    NO_FEED_KEY,
    OTHER_FEED_KEY,
    FeedService,
)

pytestmark = pytest.mark.timeout(90)
# ~180 odds messages a second reach a client: a busy stream that a loaded 2-core box sustains.
SERVICE_FLAGS = ("--seed", "5", "--speed", "30", "--updates-per-second", "300")


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FeedService]:
    """One service for the tests that leave it as they found it (one xdist worker each)."""
    with FeedService(tmp_path_factory.mktemp("feed"), *SERVICE_FLAGS) as running_service:
        yield running_service


@pytest.fixture(scope="module")
def short_window(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FeedService]:
    """A service with a one-second replay window, for resync_required and the restart."""
    folder = tmp_path_factory.mktemp("feed-short")
    with FeedService(folder, *SERVICE_FLAGS, "--replay-window", "1") as running_service:
        yield running_service


@contextlib.asynccontextmanager
async def rest(
    service: FeedService, key: str = FEED_KEY, **kwargs: Any
) -> AsyncIterator[ApiClient]:
    async with ApiClient(service.base_url, key, **kwargs) as api:
        yield api


async def busy_events(api: ApiClient, count: int = 10) -> list[int]:
    """Live events first (their prices move most), then the next ones to start."""
    live = [event.id for event in await api.live_events()]
    upcoming = [event.id for event in await api.events("football", status="pending")]
    return list(dict.fromkeys([*live, *upcoming]))[:count]


async def selected(api: ApiClient) -> list[str]:
    return list((await api.selected_bookmakers()).bookmakers)


class Watcher:
    """Collects every state the client passes through."""

    def __init__(self) -> None:
        self.states: list[FeedState] = []
        self.details: list[str] = []

    def __call__(self, status: FeedStatus) -> None:
        self.states.append(status.state)
        self.details.append(status.detail)


def feed_client(
    base_url: str,
    key: str,
    book: RecordingBook,
    api: Any,
    ids: Iterable[int],
    watcher: Watcher | None = None,
    **kwargs: Any,
) -> FeedClient:
    kwargs.setdefault("timings", timings())
    return FeedClient(
        base_url,
        key,
        book,
        api,
        track=ids,
        rng=random.Random(3),
        on_state_change=watcher,
        **kwargs,
    )


async def streaming(client: FeedClient, messages: int = 20) -> None:
    """Wait until the client is live and has applied some more messages."""
    await wait_until(lambda: client.state is FeedState.LIVE, what="live")
    start = client.counters.messages
    await wait_until(lambda: client.counters.messages >= start + messages, what="traffic")


async def test_live_stream_keeps_the_book_equal_to_rest(service: FeedService) -> None:
    async with rest(service) as api:
        ids, books = await busy_events(api, 20), await selected(api)
        book = RecordingBook()
        client = feed_client(service.base_url, FEED_KEY, book, api, ids[:10])
        async with running(client):
            await streaming(client)
            await assert_matches_service(client, book, api, ids[:10], books)
            client.track(ids)  # ten more while streaming: loaded alone, the board stays live
            await wait_until(lambda: client.counters.loads == 1, what="load")
            await streaming(client)
            await assert_matches_service(client, book, api, ids[10:], books)
        assert client.counters.resyncs == 1 and client.counters.connects == 1
        assert book.installs == 2 and book.odds_applied > 0


async def test_connection_dropped_mid_stream_resumes_by_replay(service: FeedService) -> None:
    async with rest(service) as api, FaultProxy(service.port) as proxy:
        ids, books = await busy_events(api), await selected(api)
        book, watcher = RecordingBook(), Watcher()
        client = feed_client(proxy.base_url, FEED_KEY, book, api, ids, watcher)
        async with running(client):
            await streaming(client)
            proxy.drop()
            await wait_until(lambda: client.counters.reconnects == 1, what="reconnect")
            await streaming(client)
            await assert_matches_service(client, book, api, ids, books)
        assert FeedState.REPLAYING in watcher.states
        assert client.counters.resyncs == 1  # resumed with lastSeq: no second snapshot
        assert proxy.feed_links == 2


async def test_frame_cut_mid_json_resumes_by_replay(service: FeedService) -> None:
    async with rest(service) as api, FaultProxy(service.port) as proxy:
        ids, books = await busy_events(api), await selected(api)
        book = RecordingBook()
        client = feed_client(proxy.base_url, FEED_KEY, book, api, ids, compression=None)
        async with running(client):
            await streaming(client)
            proxy.cut_mid_frame()
            await wait_until(lambda: client.counters.reconnects == 1, what="reconnect")
            await streaming(client)
            await assert_matches_service(client, book, api, ids, books)
        assert client.counters.resyncs == 1
        assert client.counters.malformed == 0  # an incomplete frame is never delivered


async def test_silent_half_open_link_goes_stale_then_recovers(service: FeedService) -> None:
    quick = timings(stale_after=0.5, ping_interval=0.5, ping_timeout=0.5, close_timeout=0.3)
    async with rest(service) as api, FaultProxy(service.port) as proxy:
        ids, books = await busy_events(api), await selected(api)
        book, watcher = RecordingBook(), Watcher()
        client = feed_client(proxy.base_url, FEED_KEY, book, api, ids, watcher, timings=quick)
        async with running(client):
            await streaming(client)
            proxy.blackhole()
            await wait_until(lambda: client.state is FeedState.STALE, timeout=5, what="stale")
            await wait_until(lambda: client.counters.reconnects == 1, what="reconnect")
            await streaming(client)
            await assert_matches_service(client, book, api, ids, books)
        assert client.counters.resyncs == 1


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
            assert client.last_seq is not None and client.last_seq < before  # reset, not max
            await streaming(client)
            await assert_matches_service(client, book, api, ids, books)
        assert client.counters.reconnects >= 1


class SlowSnapshots:
    """The real ApiClient, with each snapshot held back so live messages race it."""

    def __init__(self, api: ApiClient, before: float, after: float) -> None:
        self.api, self.before, self.after = api, before, after

    async def odds_multi_with_seq(
        self, event_ids: Iterable[int | str], bookmakers: Iterable[str] | str
    ) -> tuple[list[OddsRecord], int]:
        await asyncio.sleep(self.before)
        result = await self.api.odds_multi_with_seq(event_ids, bookmakers)
        await asyncio.sleep(self.after)
        return result


async def test_snapshot_race_buffers_and_applies_only_newer_messages(
    service: FeedService,
) -> None:
    async with rest(service) as api:
        ids, books = await busy_events(api), await selected(api)
        book = RecordingBook()
        slow = SlowSnapshots(api, before=0.5, after=0.5)
        client = feed_client(service.base_url, FEED_KEY, book, slow, ids)
        async with running(client):
            await wait_until(lambda: client.counters.resyncs == 1, what="snapshot")
            # Messages that arrived before the snapshot's seq were dropped, the later applied.
            assert client.counters.duplicates > 0
            assert book.installs == 1 and len(book.epochs[1]) > 0
            await streaming(client)
            await assert_matches_service(client, book, api, ids, books)


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
                await asyncio.sleep(1.5)  # many backoff periods at these timings
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
    ("key", "status"), [("not-a-key", "401"), (NO_FEED_KEY, "403")], ids=["401", "403"]
)
async def test_refused_key_stops_with_a_clear_state(
    service: FeedService, key: str, status: str
) -> None:
    client = feed_client(service.base_url, key, RecordingBook(), None, ())
    async with running(client):
        await wait_until(lambda: client.state is FeedState.UNAUTHORIZED, what=status)
        await asyncio.sleep(0.5)
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
            await asyncio.sleep(1.5)
            assert client.state is FeedState.STALE and "limit" in client.detail
            assert lean.requests_sent == sent == 3  # no retry loop
            assert (client.counters.resyncs, client.counters.loads) == (1, 1)
            assert client.counters.connects == 1  # the socket stayed open
            assert client.counters.messages > applied  # and kept streaming


def wait(predicate: object, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_feed_thread_reads_while_the_ui_thread_is_blocked(service: FeedService) -> None:
    live = httpx.get(f"{service.base_url}/events/live", params={"apiKey": FEED_KEY}).json()
    ids = [event["id"] for event in live][:10]
    api = ApiClient(service.base_url, FEED_KEY)
    client = FeedClient(service.base_url, FEED_KEY, OddsBook(), api, track=ids, timings=timings())
    feed = FeedThread(client, cleanup=api.aclose)
    feed.start()
    try:
        wait(lambda: feed.status().state is FeedState.LIVE)
        before = feed.status().counters
        time.sleep(1.5)  # the UI thread is stuck writing to a slow terminal
        after = feed.status().counters
        assert after.frames > before.frames and after.messages > before.messages
        changes = feed.take_changes()
        assert any(key[0] in ids for key in changes)  # the snapshot, at least
        with feed.lock:
            assert all(event_id in client.book for event_id in ids)
        feed.track(ids[:3])
    finally:
        feed.stop()
    assert not feed.alive and feed.error is None
    assert feed.status().state is FeedState.OFFLINE
