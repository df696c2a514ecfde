"""The desk's one feed boundary: a `FeedClient` on its own thread, the book it keeps, and the
only lock between them and the UI.

The socket reader never waits for the terminal: Textual writes through a bounded queue, and a
full queue would block the UI loop, so the feed lives on its own loop (FEED-CLIENT.md rule 16,
`oddstui.api.feed_thread`). The UI thread takes one immutable `FeedChanges` per flush (`take`)
and reads the book only through `reading`, which holds the feed's lock for the read
alone: screens copy out figures, then format them with the lock released.

The book is the one store of scores and status: REST answers are merged into it
(`merge_events`, which keeps a score the feed set after the request was sent), and the board
mirrors what it holds through the change sets.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from oddstui.api.feed import FeedClient, FeedTimings
from oddstui.api.feed_thread import FeedThread
from oddstui.api.feed_url import FEED_MARKETS, FeedFilters
from oddstui.api.messages import ReplayInfo
from oddstui.api.models import Clock, Event, OddsRecord, Scores
from oddstui.api.rest import ApiClient
from oddstui.book.oddsbook import ChangeKey, OddsBook

#: A price change: (event, bookmaker) or (event, bookmaker, market); see `OddsBook.take_changes`.
PriceKey = tuple[int, str] | tuple[int, str, str]


@dataclass(frozen=True, slots=True)
class ScoreChange:
    """An event's scores (and status, when the feed sent one) as the book holds them now."""

    event_id: int
    scores: Scores
    status: str | None
    #: The clock the feed carried last (the built-in service sends one when a clock stops or
    #: starts) and when it was sent, on `Feed.monotonic`'s clock; None without one.
    clock: Clock | None = None
    clock_received: float = 0.0


@dataclass(frozen=True, slots=True)
class FeedChanges:
    """What the feed brought since the last `take`: one object per flush."""

    scores: tuple[ScoreChange, ...] = ()
    prices: frozenset[PriceKey] = frozenset()
    reconnected: bool = False  # a new connection: scores and status were not replayed


class FeedHealth(NamedTuple):
    state: str
    last_seq: int | None
    last_receive: float | None  # monotonic time of the last frame
    detail: str
    relay: str | None  # behind an `oddstui relay`: its upstream's state
    replay: ReplayInfo | None = None  # the feed is an `oddstui replay`


class Feed(Protocol):
    """What the hub needs of the feed (the recorded feeds of the snapshot tests have it too)."""

    #: The clock of the book's receive stamps.
    monotonic: Callable[[], float]

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def reconnect(self) -> None: ...

    def track(self, event_ids: list[int]) -> None: ...

    def scores_refreshed(self) -> None: ...

    def keep_bookmakers(self, names: list[str]) -> None: ...

    def on_change(self, wake: Callable[[], None]) -> None: ...

    def take(self) -> FeedChanges: ...

    def merge_events(self, events: Iterable[Event], requested: float | None) -> None: ...

    def install_odds(self, records: Iterable[OddsRecord], requested: float) -> None: ...

    def health(self) -> FeedHealth: ...

    def reading(self) -> contextlib.AbstractContextManager[OddsBook | None]: ...


class BookFeed:
    """A book behind a lock, and the UI thread's side of it: `take`, `reading`, `merge_events`.

    `DeskFeed` fills the book from the service's feed; the recorded feeds of the snapshot tests
    build on this class too, so the board gets its scores the same way in both.
    """

    def __init__(self, book: OddsBook, lock: contextlib.AbstractContextManager[object]) -> None:
        self._book = book
        self._lock = lock

    def reconnected(self) -> bool:
        """True once after the feed connected again (scores and status were not replayed)."""
        return False

    def take(self) -> FeedChanges:
        """Everything that changed since the last call, as one immutable change set."""
        reconnected = self.reconnected()
        prices: set[PriceKey] = set()
        scores: list[ScoreChange] = []
        with self._lock:
            keys: set[ChangeKey] = self._book.take_changes()
            for key in keys:
                if len(key) > 1:
                    prices.add(key)
                    continue
                state = self._book.event(key[0])
                if state is None or state.scores_stale:
                    continue
                clock = state.clock if state.clock_from_feed else None
                scores.append(
                    ScoreChange(
                        key[0], state.scores, state.status or None, clock, state.clock_received
                    )
                )
        return FeedChanges(tuple(scores), frozenset(prices), reconnected)

    def merge_events(self, events: Iterable[Event], requested: float | None) -> None:
        """Fold REST events into the book; `requested` (on `monotonic`'s clock; None: unknown)
        is when they were asked for, so a score the feed set since is kept."""
        with self._lock:
            self._book.update_events(events, requested=requested)

    def install_odds(self, records: Iterable[OddsRecord], requested: float) -> None:
        """REST odds of some events into the book (without a feed, the plan has none);
        `requested`: when they were asked for, on `monotonic`'s clock."""
        records = list(records)
        with self._lock:
            self._book.install_snapshot(records, received=requested)

    @contextlib.contextmanager
    def reading(self) -> Iterator[OddsBook | None]:
        """The book, under the feed's lock while the block runs."""
        with self._lock:
            yield self._book


class DeskFeed(BookFeed):
    """The `FeedClient` (with its own `ApiClient` for snapshots) on a daemon thread."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timings: FeedTimings | None = None,
        clock: Callable[[], float] = time.monotonic,
        record: str | None = None,
        markets: Sequence[str] = FEED_MARKETS,
    ) -> None:
        book = OddsBook(clock=clock)
        api = ApiClient(base_url, api_key)
        tap = None
        if record is not None:  # `--record DIR`: what the book is given is written too
            from oddstui.recording.tap import desk_tap

            api, tap = desk_tap(record, base_url, api_key, book, markets)
        self._client = FeedClient(
            base_url,
            api_key,
            tap or book,
            api,
            timings=timings,
            clock=clock,
            keep_lines=tap is not None,
            filters=FeedFilters(markets=tuple(markets)),
        )
        super().__init__(book, self._client.lock)

        async def cleanup() -> None:
            if tap is not None:
                await tap.close()
            await api.aclose()

        self._thread = FeedThread(self._client, cleanup=cleanup)
        self._tap = tap
        self._generation = 0
        self.monotonic = clock

    # ------------------------------------------------------------------ control

    def start(self) -> None:
        self._thread.start()
        if self._tap is not None:
            self._thread.call(self._tap.keep_events)

    def stop(self) -> None:
        self._thread.stop(timeout=5.0)

    def reconnect(self) -> None:
        """After the feed was replaced: take it back (only ever on the trader's request)."""
        self._thread.resume()

    def track(self, event_ids: list[int]) -> None:
        """Snapshot these events' odds over REST and keep them current (the Event screen's)."""
        self._thread.track(event_ids)

    def keep_bookmakers(self, names: list[str]) -> None:
        """The account's selection changed: forget the prices of the books left out, and load
        those of the books added."""
        with self._lock:
            self._book.keep_bookmakers(names)
        self._thread.call(self._client.select_bookmakers, list(names))

    def scores_refreshed(self) -> None:
        """Scores and statuses were refetched over REST after a reconnect."""
        self._client.mark_scores_fresh()

    def on_change(self, wake: Callable[[], None]) -> None:
        """`wake()` runs on the feed's thread when a change arrives after the last `take`: the
        UI can paint at once after a quiet spell (it must hop to its own loop)."""
        self._book.on_change = wake

    def reconnected(self) -> bool:
        generation = self._client.generation
        again = generation != self._generation and self._generation != 0
        self._generation = generation
        return again

    def health(self) -> FeedHealth:
        status = self._client.status()
        return FeedHealth(
            status.state.value,
            status.last_seq,
            status.last_receive,
            status.detail,
            status.relay,
            self._client.replay,
        )

    @property
    def messages(self) -> int:
        """Feed messages received so far (tests and benchmarks read it)."""
        return self._client.counters.messages


def open_feed(
    base_url: str,
    api_key: str,
    timings: FeedTimings | None = None,
    record: str | None = None,
    markets: Sequence[str] | None = None,
) -> DeskFeed:
    """The one feed of the app, run on its own thread (`record`: a folder to record it into;
    `markets`: the trader's `feed_markets`, None for the desk's own)."""
    return DeskFeed(
        base_url, api_key, timings=timings, record=record, markets=markets or FEED_MARKETS
    )
