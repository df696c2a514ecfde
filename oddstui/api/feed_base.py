"""The state under `FeedClient` (see feed.py): its settings, counters, cursor and status, and
applying odds to the book under the lock. The snapshot and stream layers build on it."""

from __future__ import annotations

import asyncio
import logging
import math
import random
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from websockets.asyncio.client import ClientConnection

from oddstui.api.backoff import Backoff
from oddstui.api.budget import TokenBucket
from oddstui.api.feed_state import FeedCounters, FeedState, FeedStatus
from oddstui.api.feed_url import FeedFilters
from oddstui.api.messages import (
    Message,
    OddsMessage,
    RelayStatus,
    ReplayInfo,
    Welcome,
)
from oddstui.api.models import OddsRecord
from oddstui.api.redact import redact

log = logging.getLogger("oddstui.feed")

MAX_IDS_PER_SNAPSHOT = 10
MAX_BOOKMAKERS_PER_SNAPSHOT = 30
CLOSE_REPLACED = 4000  # the built-in service: "replaced by a newer connection"
CLOSE_NORMAL = 1000  # the public service's "replaced" (it has been seen using 1000 and 1013)
CLOSE_TRY_LATER = 1013


class Book(Protocol):
    """What the feed needs of `oddstui.book.oddsbook.OddsBook`."""

    #: Set from the welcome: odds messages list all the bookmaker's markets.
    complete_markets: bool

    def install_snapshot(self, records: Iterable[OddsRecord]) -> object: ...

    def apply(self, message: Message) -> object: ...

    def apply_odds(self, message: OddsMessage) -> object: ...

    def take_changes(self) -> Any: ...


class SnapshotSource(Protocol):
    """What the feed needs of `ApiClient`."""

    async def odds_multi_with_seq(
        self, event_ids: Iterable[int | str], bookmakers: Iterable[str] | str
    ) -> tuple[list[OddsRecord], int]: ...


@dataclass(frozen=True, slots=True)
class FeedTimings:
    """Every duration the client uses, in seconds; tests shrink them."""

    backoff_base: float = 1.0
    backoff_cap: float = 45.0
    hold: float = 30.0
    """A connection open this long resets the backoff."""
    stale_after: float = 10.0
    """No frame for this long: the state shows stale (not dead)."""
    ping_interval: float = 20.0
    ping_timeout: float = 20.0
    open_timeout: float = 10.0
    close_timeout: float = 5.0
    replay_quiet: float = 0.5
    """A replay with no frame for this long is over, even if it never reached the welcome seq."""
    replaced_window: float = 5.0
    """A 1013 close this soon after a message counts towards "replaced" (public service)."""
    replaced_memory: float = 600.0
    """Two such 1013 closes within this span mean the connection was replaced."""
    resync_retry: float = 5.0
    """Base of the wait before retrying a snapshot that failed for a network reason."""
    max_retry_after: float = 3600.0


class FeedBase:
    """The fields and state of one `FeedClient`; see there for the arguments."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        book: Book,
        api: SnapshotSource | None = None,
        *,
        filters: FeedFilters | None = None,
        track: Iterable[int] = (),
        bookmakers: Sequence[str] | None = None,
        last_seq: int | None = None,
        timings: FeedTimings | None = None,
        resync_bucket: TokenBucket | None = None,
        on_state_change: Callable[[FeedStatus], None] | None = None,
        on_scores_stale: Callable[[], None] | None = None,
        on_resync: Callable[[int | None, str], None] | None = None,
        keep_lines: bool = False,
        quotes: bool = True,
        lock: threading.RLock | None = None,
        max_size: int = 64 * 2**20,
        compression: str | None = "deflate",
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._base_url = base_url
        self._key = api_key or None
        self.book = book
        self._api = api
        self.filters = filters or FeedFilters()
        self._tracked: tuple[int, ...] = tuple(dict.fromkeys(int(i) for i in track))
        self._fixed_bookmakers = tuple(bookmakers) if bookmakers else None
        # The account's selection as changed since the last welcome (the welcome lists it too).
        self._selection: tuple[str, ...] | None = None
        self._timings = timings or FeedTimings()
        # ~1 resync a minute at most, bursts of 3: well inside 5,000 requests an hour.
        self._bucket = resync_bucket or TokenBucket(15.0, 60.0 / 60.0, clock)
        self._on_state_change = on_state_change
        self._on_scores_stale = on_scores_stale
        self._on_resync = on_resync
        self._keep_lines = keep_lines
        self._quotes = quotes
        self.lock = lock or threading.RLock()
        self._max_size = max_size
        self._compression = compression
        self._rng = rng or random.Random()
        self._clock = clock
        self._backoff = Backoff(self._timings.backoff_base, self._timings.backoff_cap, self._rng)

        self.counters = FeedCounters()
        self._state = FeedState.OFFLINE
        self._detail = "not started"
        self._cursor: int | None = last_seq
        self._needs_snapshot = last_seq is None
        self._floors: dict[int, int] = {}
        self._floors_until = -1
        self._last_frame: float | None = None
        self._scores_stale = True
        self._generation = 0
        self._opened_before = False
        self._suspect_closes: list[float] = []
        self._relay: RelayStatus | None = None
        self.replay: ReplayInfo | None = None  # the last welcome said: an `oddstui replay`

        # Per connection.
        self._ws: ClientConnection | None = None
        self._welcome: Welcome | None = None
        self._buffer: list[Message] | None = None
        self._replay_target: int | None = None
        self._resync_task: asyncio.Task[None] | None = None
        self._resync_pending = ""
        self._loading: set[int] = set()
        self._load_buffer: list[OddsMessage] = []
        self._load_tasks: set[asyncio.Task[None]] = set()
        self._load_pending = ""
        self._silent = False
        self._held = False
        self._live_seen = False

        self._running = False
        self._stop_requested = False
        self._paused = False
        self._wake: asyncio.Event | None = None
        self._last_malformed_warning = -math.inf

    def __repr__(self) -> str:
        return (
            f"FeedClient(base_url={redact(self._base_url, self._key)!r}, "
            f"state={self._state.value!r}, last_seq={self._cursor!r})"
        )

    # ------------------------------------------------------------------ what the app reads

    @property
    def state(self) -> FeedState:
        return self._state

    @property
    def detail(self) -> str:
        return self._detail

    @property
    def last_seq(self) -> int | None:
        return self._cursor

    @property
    def last_receive(self) -> float | None:
        return self._last_frame

    @property
    def scores_stale(self) -> bool:
        return self._scores_stale

    @property
    def generation(self) -> int:
        return self._generation

    def status(self) -> FeedStatus:
        return FeedStatus(
            self._state,
            self._detail,
            self.counters.copy(),
            self._cursor,
            self._last_frame,
            self._scores_stale,
            self._generation,
            None if self._relay is None else self._relay.upstream,
            "" if self._relay is None else self._relay.detail,
        )

    def take_changes(self) -> Any:
        """The book's changes since the last call, taken under the lock."""
        with self.lock:
            return self.book.take_changes()

    def mark_scores_fresh(self) -> None:
        """Call after refetching GET /events: scores and statuses are current again."""
        self._scores_stale = False

    def _apply_odds(self, message: OddsMessage) -> bool:
        """Apply one odds message unless its seq is at or below the cursor (or its event's floor
        after a multi-part snapshot). Call under the lock."""
        seq = message.seq
        cursor = self._cursor
        if cursor is not None and seq <= cursor:
            self.counters.duplicates += 1
            return False
        if self._floors:
            if seq <= self._floors.get(message.event_id, -1):
                self.counters.duplicates += 1
                return False
            if seq > self._floors_until:
                self._floors = {}
        self.book.apply_odds(message)
        self._cursor = seq
        self.counters.messages += 1
        return True

    def _apply_buffer(self) -> None:
        """Apply what was buffered, in order, through the seq check. Call under the lock."""
        buffered, self._buffer = self._buffer or [], None
        for message in buffered:
            if type(message) is OddsMessage:
                self._apply_odds(message)
            else:
                self.book.apply(message)
                self.counters.messages += 1

    def _malformed(self, count: int) -> None:
        self.counters.malformed += count
        now = self._clock()
        if now - self._last_malformed_warning >= 60.0:
            self._last_malformed_warning = now
            log.warning("feed: skipped malformed messages (%d so far)", self.counters.malformed)

    def _mark_live_if_connected(self) -> None:
        if self._ws is not None:
            self._refresh_state()

    def _refresh_state(self) -> None:
        if self._ws is None:
            return
        if self._resync_task is not None and not self._resync_task.done():
            if self._resync_pending:
                self._set_state(FeedState.STALE, self._resync_pending)
            else:
                self._set_state(FeedState.RESYNCING, self._detail)
        elif self._replay_target is not None:
            self._set_state(FeedState.REPLAYING, self._detail)
        elif self._silent:
            self._set_state(FeedState.STALE, f"no data for {self._timings.stale_after:.0f} s")
        elif self._load_pending:
            self._set_state(FeedState.STALE, self._load_pending)
        else:
            self._set_state(FeedState.LIVE, "streaming")

    def _set_state(self, state: FeedState, detail: str) -> None:
        if state is self._state and detail == self._detail:
            return
        self._state = state
        self._detail = detail
        if state in (FeedState.REPLACED, FeedState.UNAUTHORIZED, FeedState.OFFLINE):
            log.info("feed %s: %s", state.value, detail)
        if self._on_state_change is not None:
            self._on_state_change(self.status())
