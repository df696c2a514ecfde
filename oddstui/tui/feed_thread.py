"""The desk's feed: a `FeedClient` on its own thread, drained by the UI thread.

The socket reader never waits for the terminal: Textual writes through a bounded queue, and a
full queue would block the UI loop, so the feed lives on another loop (FEED-CLIENT.md rule 16,
`oddstui.api.feed_thread`). The book is shared under the client's lock; the UI takes its changes
a few times a second, as `FeedUpdate`s.
"""

from __future__ import annotations

from oddstui.api.feed import FeedClient, FeedTimings
from oddstui.api.feed_thread import FeedThread
from oddstui.api.rest import ApiClient
from oddstui.book.oddsbook import OddsBook
from oddstui.tui.feed_port import FeedUpdate


class ThreadedFeed:
    """One `FeedClient` with its own `ApiClient` (for snapshots) on a daemon thread."""

    def __init__(self, base_url: str, api_key: str, *, timings: FeedTimings | None = None) -> None:
        #: The prices, scores and clocks the feed keeps current; read it under `lock`.
        self.book = OddsBook()
        api = ApiClient(base_url, api_key)
        self.client = FeedClient(base_url, api_key, self.book, api, timings=timings)
        #: The lock the feed holds while it mutates the book.
        self.lock = self.client.lock
        self._thread = FeedThread(self.client, cleanup=api.aclose)
        self._generation = 0

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._thread.stop(timeout=5.0)

    def reconnect(self) -> None:
        self._thread.resume()

    def track(self, event_ids: list[int]) -> None:
        """Snapshot these events' odds over REST (the Event screen's event)."""
        self._thread.track(event_ids)

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

    def relay(self) -> str | None:
        return self.client.status().relay
