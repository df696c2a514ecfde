"""A big frame does not hold the book's lock from its first message to its last: the UI's reads
wait for one slice (`feed_stream.LOCK_SLICE`), and the book still ends equal to the service.

Against the real built-in service; the slice is set to nothing so that every frame of more than
one message lets go of the lock between its messages.
"""

from __future__ import annotations

import threading
from types import TracebackType

import pytest

from oddstui.api import feed_stream
from tests.api.feed_harness import (
    RecordingBook,
    assert_matches_service,
    busy_events,
    feed_client,
    rest,
    running,
    selected,
    streaming,
    wait_until,
)
from tests.api.feed_service import FEED_KEY, FeedService, service

pytestmark = pytest.mark.timeout(180)
__all__ = ["service"]


class CountingLock:
    """A re-entrant lock that counts the releases made inside a `with` block (the slices)."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self.sliced = 0

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        return self._lock.acquire(blocking, timeout)

    def release(self) -> None:
        self.sliced += 1
        self._lock.release()

    def __enter__(self) -> bool:
        return self._lock.acquire()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._lock.release()


async def test_a_frame_lets_go_of_the_lock_between_messages(
    service: FeedService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(feed_stream, "LOCK_SLICE", 0.0)
    async with rest(service) as api:
        ids, books = await busy_events(api, 10), await selected(api)
        book = RecordingBook()
        client = feed_client(service.base_url, FEED_KEY, book, api, ids)
        lock = CountingLock()
        client.lock = lock  # type: ignore[assignment]
        async with running(client):
            await streaming(client)
            await wait_until(lambda: lock.sliced > 0, what="a frame sliced")
            await assert_matches_service(client, book, api, ids, books)
        assert book.odds_applied > 0
