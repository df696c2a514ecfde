"""What the hub needs from the feed, and the adapter that runs `FeedClient` on its own thread.

The hub drains plain `FeedUpdate`s on the UI thread; the socket reader runs on the feed's own
thread and event loop, so terminal output can slow painting but never reading.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from oddstui.api.feed import FeedTimings
from oddstui.api.models import Scores


@dataclass(frozen=True, slots=True)
class FeedUpdate:
    """One thing the feed brought, as the hub folds it into the board.

    `kind` is "score", "status", "odds" (prices of an event moved) or "reconnected" (a new
    connection: scores and status were not replayed).
    """

    kind: str
    event_id: int = 0
    scores: Scores | None = None
    status: str | None = None
    key: tuple[int] | tuple[int, str] | tuple[int, str, str] | None = None
    """The book's change key, for screens that show prices (see `OddsBook.take_changes`)."""


class FeedPort(Protocol):
    def start(self) -> None: ...

    def stop(self) -> None: ...

    def reconnect(self) -> None: ...

    def track(self, event_ids: list[int]) -> None:
        """Keep these events' odds in the book from REST snapshots plus the feed."""
        ...

    def scores_refreshed(self) -> None:
        """Scores and statuses were refetched over REST after a reconnect."""
        ...

    def keep_bookmakers(self, names: list[str]) -> None:
        """The account's selection changed: forget the prices of the books left out."""
        ...

    def drain(self) -> list[FeedUpdate]:
        """Everything that arrived since the last call (called on the UI thread)."""
        ...

    def health(self) -> tuple[str, int | None, float | None, str]:
        """(state, last seq, monotonic time of the last frame, one line of detail)."""
        ...

    def relay(self) -> str | None:
        """Behind an `oddstui relay`: the state of its upstream; None otherwise."""
        ...


def open_feed(base_url: str, api_key: str, timings: FeedTimings | None = None) -> FeedPort:
    """The one feed of the app, run on its own thread."""
    from oddstui.tui.feed_thread import ThreadedFeed

    return ThreadedFeed(base_url, api_key, timings=timings)
