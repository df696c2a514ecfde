"""The desk's feed boundary against the real built-in service: one immutable change set per
take, reads only through the feed, and a wake when a change arrives after a take (the hub's
leading-edge flush paints at once after a quiet spell)."""

from __future__ import annotations

import dataclasses
import threading
import time

import httpx
import pytest

from oddstui.tui.desk.feed import DeskFeed, FeedChanges
from tests.tui.conftest import DEMO_KEY, Service


def wait(condition: object, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_one_change_set_per_take_reads_under_the_feeds_lock_and_wakes(
    fast_service: Service,
) -> None:
    live = httpx.get(f"{fast_service.base_url}/events/live", params={"apiKey": DEMO_KEY}).json()
    ids = [event["id"] for event in live][:5]
    feed = DeskFeed(fast_service.base_url, DEMO_KEY)
    woken: list[str] = []
    feed.on_change(lambda: woken.append(threading.current_thread().name))
    feed.start()
    try:
        wait(lambda: feed.health().state == "live")
        feed.track(ids)
        taken: list[FeedChanges] = []
        wait(lambda: taken.append(feed.take()) or any(c.prices for c in taken))
        changes = next(c for c in taken if c.prices)
        with pytest.raises(dataclasses.FrozenInstanceError):
            changes.prices = frozenset()  # type: ignore[misc]
        # non-empty: chosen above for having prices
        assert all(len(key) in (2, 3) for key in changes.prices)
        # What the change set names is in the book, read through the feed.
        with feed.reading() as book:
            assert book is not None
            assert all(key[0] in book for key in changes.prices)
        # After a take, the next change wakes the UI once, from the feed's thread.
        woken.clear()
        feed.take()
        wait(lambda: bool(woken))
        # Many more messages applied (the feed's cursor moves on), and among them changes to
        # the tracked events (the take below has prices): they did not wake the UI again.
        woke_at = feed.health().last_seq
        assert woke_at is not None
        wait(lambda: (feed.health().last_seq or 0) > woke_at + 200, timeout=60)
        assert woken[0] != threading.main_thread().name
        assert len(woken) == 1  # until the next take, more changes do not wake it again
        assert feed.take().prices
    finally:
        feed.stop()
