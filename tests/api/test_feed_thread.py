"""FeedThread: the feed keeps reading while the caller's thread is blocked (a slow terminal)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from oddstui.api.feed import FeedClient
from oddstui.api.feed_state import FeedState
from oddstui.api.feed_thread import FeedThread
from oddstui.api.rest import ApiClient
from oddstui.book.oddsbook import OddsBook
from tests.api.feed_harness import timings
from tests.api.feed_service import FEED_KEY, FeedService

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def service(tmp_path: Path) -> Iterator[FeedService]:
    flags = ("--seed", "5", "--speed", "30", "--updates-per-second", "1500")
    with FeedService(tmp_path, *flags) as running:
        yield running


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
        before = feed.status().counters.frames
        time.sleep(1.0)  # the UI thread is stuck writing to a slow terminal
        assert feed.status().counters.frames > before + 5
        changes = feed.take_changes()
        assert any(key[0] in ids for key in changes)  # the snapshot, at least
        with feed.lock:
            assert all(event_id in client.book for event_id in ids)
        feed.track(ids[:3])
    finally:
        feed.stop()
    assert not feed.alive and feed.error is None
    assert feed.status().state is FeedState.OFFLINE
