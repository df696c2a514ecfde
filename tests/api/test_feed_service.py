"""Feed recovery against the real built-in service (`oddstui serve --port 0`).

Transport faults go through `FaultProxy`, a TCP proxy in front of the service. Each recovery
test ends on the invariant of `assert_matches_service`: GET /odds/multi, rolled forward to the
client's cursor, equals the book, and no odds message was applied twice.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

import httpx
import pytest

from oddstui.api.errors import NotFound
from oddstui.api.feed import FeedClient
from oddstui.api.feed_state import FeedState
from oddstui.api.feed_thread import FeedThread
from oddstui.api.models import OddsRecord
from oddstui.api.rest import ApiClient
from oddstui.book.oddsbook import OddsBook
from tests.api.fault_proxy import FaultProxy
from tests.api.feed_harness import (
    RecordingBook,
    Watcher,
    assert_matches_service,
    busy_events,
    feed_client,
    rest,
    running,
    selected,
    streaming,
    timings,
    wait_until,
)
from tests.api.feed_service import FEED_KEY, OTHER_FEED_KEY, FeedService, service

pytestmark = pytest.mark.timeout(180)

Markets = tuple[str, ...]
__all__ = ["service"]  # the module-scoped fixture, one service for this file


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
        first, second = proxy.feed_requests()
        assert "lastSeq=" not in first and "lastSeq=" in second  # resumed from the cursor
        assert client.counters.resyncs == 1  # by replay: no second snapshot
        assert FeedState.LIVE in watcher.states[watcher.states.index(FeedState.OFFLINE) :]


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
            await wait_until(lambda: FeedState.STALE in watcher.states, timeout=30, what="stale")
            await wait_until(lambda: client.counters.reconnects == 1, what="reconnect")
            await streaming(client)
            await assert_matches_service(client, book, api, ids, books)
        assert client.counters.resyncs == 1


class SlowSnapshots:
    """The real ApiClient, with each snapshot held back so live messages race it: until the
    feed has brought `frames` more frames before the request, and again before the answer."""

    def __init__(self, api: ApiClient, frames: int = 3) -> None:
        self.api, self.frames = api, frames
        self.client: FeedClient | None = None

    async def _more_frames(self) -> None:
        client = self.client
        assert client is not None
        start = client.counters.frames
        await wait_until(lambda: client.counters.frames >= start + self.frames, timeout=30)

    async def odds_multi_with_seq(
        self, event_ids: Iterable[int | str], bookmakers: Iterable[str] | str
    ) -> tuple[list[OddsRecord], int]:
        await self._more_frames()
        result = await self.api.odds_multi_with_seq(event_ids, bookmakers)
        await self._more_frames()
        return result


async def test_snapshot_race_buffers_and_applies_only_newer_messages(
    service: FeedService,
) -> None:
    async with rest(service) as api:
        ids, books = await busy_events(api), await selected(api)
        book = RecordingBook()
        slow = SlowSnapshots(api)
        client = feed_client(service.base_url, FEED_KEY, book, slow, ids)
        slow.client = client
        async with running(client):
            await wait_until(lambda: client.counters.resyncs == 1, what="snapshot")
            # Messages that arrived before the snapshot's seq were dropped, the later applied.
            assert client.counters.duplicates > 0
            assert book.installs == 1 and len(book.epochs[1]) > 0
            await streaming(client)
            await assert_matches_service(client, book, api, ids, books)


def wait(predicate: object, timeout: float = 30.0) -> None:
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

        def read_on() -> bool:
            after = feed.status().counters
            return after.frames > before.frames + 5 and after.messages > before.messages + 5

        # This (UI) thread only polls, as if stuck writing to a slow terminal; the feed's own
        # thread keeps reading frames and applying messages.
        wait(read_on, timeout=30)
        changes = feed.take_changes()
        assert any(key[0] in ids for key in changes)  # the snapshot, at least
        with feed.lock:
            assert all(event_id in client.book for event_id in ids)
        feed.track(ids[:3])
    finally:
        feed.stop()
    assert not feed.alive and feed.error is None
    assert feed.status().state is FeedState.OFFLINE


async def test_a_book_added_to_the_selection_is_loaded_without_waiting_for_a_move(
    service: FeedService,
) -> None:
    # Its own key: the selection changes on the account, and the other tests share the service.
    async with rest(service, OTHER_FEED_KEY) as api:
        ids, books = await busy_events(api, 10), await selected(api)
        everyone = [book.name for book in await api.bookmakers()]
        book = RecordingBook()
        client = feed_client(service.base_url, OTHER_FEED_KEY, book, api, ids)
        async with running(client):
            await streaming(client)
            carried = client.filters.markets
            judged = False
            for loads in range(1, 4):  # a book whose every quoted match ends is not judged
                added, quoted_before = await an_unselected_quote(api, ids, books, everyone, carried)
                with client.lock:
                    assert not any(added in client.book.bookmakers(i) for i in quoted_before)
                books = list((await api.select_bookmakers([*books, added])).bookmakers)
                client.select_bookmakers(books)
                await wait_until(
                    lambda n=loads: client.counters.loads == n, timeout=30, what="load"
                )
                with client.lock:
                    shown = {i for i in quoted_before if added in client.book.bookmakers(i)}
                # A match can end, or be cancelled, while a loaded machine runs the test: judge
                # the events the book quoted both before the selection and after the load.
                still = quoted_before & await events_quoting(api, quoted_before, added, carried)
                if still:
                    assert still <= shown, f"{added} missing from events {sorted(still - shown)}"
                    judged = True
                    break
            assert judged, "each added book stopped quoting every tracked event during the test"
            await streaming(client)
            await assert_matches_service(client, book, api, ids, books)


async def an_unselected_quote(
    api: ApiClient, ids: list[int], books: list[str], everyone: list[str], carried: Markets
) -> tuple[str, set[int]]:
    """A book outside the selection that quotes markets the feed carries on some of the
    tracked events, and those events."""
    unselected = [name for name in everyone if name not in books]
    for start in range(0, len(unselected), 30):  # /odds takes at most 30 books
        quoting: dict[str, set[int]] = {}
        for event_id in ids:
            for name in await quoting_books(api, event_id, unselected[start : start + 30], carried):
                quoting.setdefault(name, set()).add(event_id)
        if quoting:
            return max(quoting.items(), key=lambda item: len(item[1]))
    raise AssertionError("no unselected book quotes any of the tracked events")


async def events_quoting(
    api: ApiClient, ids: Iterable[int], name: str, carried: Markets
) -> set[int]:
    return {i for i in ids if name in await quoting_books(api, i, [name], carried)}


async def quoting_books(
    api: ApiClient, event_id: int, names: list[str], carried: Markets
) -> set[str]:
    """Which of the books quote a market the feed carries. An ice-hockey match in overtime
    may be quoted on "ML Incl OT" alone, a market the client does not subscribe to."""
    wanted = {market.casefold() for market in carried}
    try:
        record = await api.odds(event_id, names)
    except NotFound:  # long over, and forgotten
        return set()
    return {
        book
        for book, quotes in record.bookmakers.items()
        if any(quote.name.casefold() in wanted for quote in quotes)
    }
