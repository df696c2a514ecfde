"""`FeedClient` run on its own thread and event loop, drained by the UI thread.

The socket reader never waits for the terminal: Textual writes through a bounded queue, and a
full queue would block the UI loop, so the feed lives on another loop (FEED-CLIENT.md rule 16).
The book is shared under the client's lock; the UI takes its changes a few times a second.
"""

from __future__ import annotations

import asyncio
import threading

from oddstui.api.feed import FeedClient, FeedTimings
from oddstui.api.rest import ApiClient
from oddstui.book.oddsbook import OddsBook
from oddstui.tui.feed_port import FeedUpdate


class ThreadedFeed:
    """One `FeedClient` with its own `ApiClient` (for snapshots) on a daemon thread."""

    def __init__(self, base_url: str, api_key: str, *, timings: FeedTimings | None = None) -> None:
        #: The prices, scores and clocks the feed keeps current; read it under `lock`.
        self.book = OddsBook()
        self._api = ApiClient(base_url, api_key)
        self.client = FeedClient(base_url, api_key, self.book, self._api, timings=timings)
        #: The lock the feed holds while it mutates the book.
        self.lock = self.client.lock
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._generation = 0

    def start(self) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._main, name="oddstui-feed", daemon=True)
        self._thread.start()
        self._ready.wait(timeout=5)

    def _main(self) -> None:
        asyncio.run(self._run())

    async def _run(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._ready.set()
        try:
            await self.client.run()
        finally:
            await self._api.aclose()

    def stop(self) -> None:
        loop, thread = self._loop, self._thread
        if loop is not None and thread is not None and thread.is_alive():
            loop.call_soon_threadsafe(self.client.stop)
            thread.join(timeout=5)

    def reconnect(self) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self.client.resume)

    def track(self, event_ids: list[int]) -> None:
        """Snapshot these events' odds over REST (the Event screen's event)."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self.client.track, list(event_ids))

    def keep_bookmakers(self, names: list[str]) -> None:
        with self.lock:
            self.book.keep_bookmakers(names)

    def scores_refreshed(self) -> None:
        self.client.mark_scores_fresh()

    def drain(self) -> list[FeedUpdate]:
        updates: list[FeedUpdate] = []
        generation = self.client.generation
        if generation != self._generation:
            if self._generation:
                updates.append(FeedUpdate("reconnected"))
            self._generation = generation
        with self.lock:
            keys = self.book.take_changes()
            for key in keys:
                event_id = key[0]
                if len(key) > 1:
                    updates.append(FeedUpdate("odds", event_id, key=key))
                    continue
                state = self.book.event(event_id)
                if state is None or state.scores_stale:
                    continue
                # The book learns a status only from status messages; scores come alone.
                updates.append(
                    FeedUpdate(
                        "status" if state.status else "score",
                        event_id,
                        scores=state.scores,
                        status=state.status or None,
                        key=key,
                    )
                )
        return updates

    def health(self) -> tuple[str, int | None, float | None, str]:
        status = self.client.status()
        return status.state.value, status.last_seq, status.last_receive, status.detail
