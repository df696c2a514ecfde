"""`FeedClient`: the one WebSocket feed connection of an app, kept honest under every fault.

It follows ../shared/FEED-CLIENT.md:
- `seq` is a resume cursor. Odds messages at or below it are dropped and counted.
- Each connection has a generation; anything from an older one is ignored.
- A resync takes a REST snapshot with includeSeq while the live stream is buffered, installs it
  in one step, SETS the cursor to the snapshot's seq and applies only the buffered messages above
  it. Resyncs are rate-limited by a token bucket; without budget the board stays stale and the
  socket stays open.
- A replay (resume with lastSeq) is buffered and applied in one step too, so the book is never
  half of one state and half of another.
- Events added with `track()` while streaming are loaded alone (their messages held back, then
  per-event floors), so the rest of the board stays live and the cursor does not move.
- Reconnects use full-jitter backoff, reset only once a connection has held up.
- A replaced connection never reconnects by itself; 401/403 stop; 429 waits for Retry-After.

The socket reader only splits, parses, checks seq, applies to the book and stamps receive time.
The book is mutated under `lock` (a `threading.RLock`), so another thread (the UI) may read it or
call `take_changes()` under the same lock. `FeedThread` runs all of this on its own thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import (
    ConnectionClosed,
    InvalidHandshake,
    InvalidStatus,
    InvalidURI,
)

from oddstui.api.backoff import Backoff
from oddstui.api.budget import TokenBucket, retry_after_seconds
from oddstui.api.errors import (
    Forbidden,
    OddsApiError,
    RateLimited,
    Unauthorized,
)
from oddstui.api.feed_state import FeedCounters, FeedState, FeedStatus
from oddstui.api.feed_url import FeedFilters, feed_url
from oddstui.api.messages import (
    Message,
    OddsMessage,
    RelayStatus,
    ResyncRequired,
    ScoreMessage,
    StatusMessage,
    Welcome,
    iter_frame,
)
from oddstui.api.models import OddsRecord
from oddstui.api.redact import plain, redact

log = logging.getLogger("oddstui.feed")

MAX_IDS_PER_SNAPSHOT = 10
MAX_BOOKMAKERS_PER_SNAPSHOT = 30
CLOSE_REPLACED = 4000  # the built-in service: "replaced by a newer connection"
CLOSE_NORMAL = 1000  # the public service's "replaced" (it has been seen using 1000 and 1013)
CLOSE_TRY_LATER = 1013


class _RedactKey(logging.Filter):
    """The websockets library logs request lines at debug level; they hold the key."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact(record.getMessage())
        record.args = ()
        return True


_ws_log = logging.getLogger("oddstui.feed.ws")
_ws_log.addFilter(_RedactKey())


class Book(Protocol):
    """What the feed needs of `oddstui.book.oddsbook.OddsBook`."""

    #: Set from the welcome: odds messages list all the bookmaker's markets.
    complete_markets: bool

    def install_snapshot(self, records: Iterable[OddsRecord]) -> Any: ...

    def apply(self, message: Any) -> Any: ...

    def apply_odds(self, message: Any) -> Any: ...

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


class _Retry(Exception):
    def __init__(self, delay: float, why: str) -> None:
        self.delay = delay
        self.why = why


class _Stop(Exception):
    pass


class FeedClient:
    """One feed connection: `await client.run()` until `stop()`.

    `book` receives `install_snapshot(records)` and `apply(message)` under `lock`; read it from
    other threads under the same lock, or through `take_changes()`. `api` provides snapshots
    (an `ApiClient`); without it, resyncs only reset the cursor.

    `on_resync(cursor, reason)` is called whenever the stream starts over at `cursor` (the first
    welcome, `resync_required`, a restarted service): what came before it may have gaps. With
    `keep_lines`, messages carry their JSON text in `line` (a relay forwards it).
    """

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
        self._timings = timings or FeedTimings()
        # ~1 resync a minute at most, bursts of 3: well inside 5,000 requests an hour.
        self._bucket = resync_bucket or TokenBucket(15.0, 60.0 / 60.0, clock)
        self._on_state_change = on_state_change
        self._on_scores_stale = on_scores_stale
        self._on_resync = on_resync
        self._keep_lines = keep_lines
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

    @property
    def tracked(self) -> tuple[int, ...]:
        return self._tracked

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

    # ------------------------------------------------------------------ what the app does

    def track(self, event_ids: Iterable[int]) -> None:
        """Set the events whose odds are snapshotted over REST; a change triggers a resync."""
        ids = tuple(dict.fromkeys(int(i) for i in event_ids))
        if ids == self._tracked:
            return
        known = set(self._tracked)
        added = tuple(i for i in ids if i not in known)
        self._tracked = ids
        if not added:
            return
        if self._ws is None or self._welcome is None:
            self._needs_snapshot = True  # the next connection starts with a full snapshot
        elif self._resync_task is None or self._resync_task.done():
            self._start_load(added, self._generation)
        # else: the running resync loads whatever it missed when it is done

    def stop(self) -> None:
        """End `run()`. Call on the loop's thread (`FeedThread.stop()` does that for you)."""
        self._stop_requested = True
        self._interrupt()

    def resume(self) -> None:
        """After "replaced" or "unauthorized": try again (the user asked for it)."""
        self._paused = False
        self._suspect_closes.clear()
        self._backoff.reset()
        self._interrupt()

    def _interrupt(self) -> None:
        if self._wake is not None:
            self._wake.set()
        ws = self._ws
        if ws is not None and self._stop_requested:
            asyncio.get_running_loop().create_task(ws.close())

    # ------------------------------------------------------------------ the connection loop

    async def run(self) -> None:
        """Connect, stream, recover; returns only after `stop()`."""
        if self._running:
            raise RuntimeError("FeedClient.run() is already running")
        self._running = True
        self._stop_requested = False
        self._wake = asyncio.Event()
        try:
            while not self._stop_requested:
                if self._paused:
                    await self._wake.wait()
                    self._wake.clear()
                    continue
                try:
                    await self._connection()
                    delay, why = self._backoff.next_delay(), "connection closed"
                except _Retry as retry:
                    delay, why = retry.delay, retry.why
                except _Stop:
                    self._paused = True
                    continue
                if self._stop_requested:
                    break
                self._set_state(FeedState.OFFLINE, f"{why}; reconnecting in {delay:.1f} s")
                await self._sleep(delay)
        finally:
            self._running = False
            if self._state not in (FeedState.REPLACED, FeedState.UNAUTHORIZED):
                self._set_state(FeedState.OFFLINE, "stopped")

    async def _sleep(self, delay: float) -> None:
        assert self._wake is not None
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), timeout=max(0.0, delay))
        self._wake.clear()

    async def _connection(self) -> None:
        """One connection from handshake to close. Raises _Retry or _Stop, or returns."""
        self._generation += 1
        gen = self._generation
        self.counters.connects += 1
        resume_from = None if self._needs_snapshot else self._cursor
        url = feed_url(self._base_url, self._key, self.filters, resume_from)
        self._set_state(FeedState.CONNECTING, "connecting")
        ws = await self._handshake(url)
        if self._stop_requested:  # stop() arrived during the handshake
            await ws.close()
            raise _Retry(0.0, "stopped")
        if self._opened_before:
            self.counters.reconnects += 1
        self._opened_before = True
        opened = self._clock()
        self._begin_connection(ws, resume_from)
        watchdog = asyncio.create_task(self._watch(gen, opened))
        try:
            async for frame in ws:
                self._on_frame(frame, gen)
        except ConnectionClosed:
            pass
        finally:
            watchdog.cancel()
            self._end_connection()
        self._after_close(ws, opened)

    async def _handshake(self, url: str) -> ClientConnection:
        t = self._timings
        try:
            return await connect(
                url,
                max_size=self._max_size,
                ping_interval=t.ping_interval,
                ping_timeout=t.ping_timeout,
                open_timeout=t.open_timeout,
                close_timeout=t.close_timeout,
                compression=self._compression,
                logger=_ws_log,
                user_agent_header="oddstui",
            )
        except InvalidStatus as error:
            raise self._refused(error) from None
        except InvalidURI:
            self._set_state(FeedState.OFFLINE, "the feed URL is not valid")
            raise _Stop() from None
        except (OSError, TimeoutError, InvalidHandshake, EOFError) as error:
            why = plain(redact(f"cannot connect: {type(error).__name__}: {error}", self._key))
            raise _Retry(self._backoff.next_delay(), why) from None

    def _refused(self, error: InvalidStatus) -> Exception:
        response = error.response
        status = response.status_code
        body = plain(redact(bytes(response.body or b"").decode("utf-8", "replace"), self._key))
        if status in (401, 403):
            what = "the API key was refused" if status == 401 else "the key has no feed access"
            self._set_state(FeedState.UNAUTHORIZED, f"{what} (HTTP {status}); check the key")
            return _Stop()
        if status == 429:
            wait = retry_after_seconds(response.headers.get("Retry-After"))
            if wait is None:
                wait = self._backoff.next_delay()
            wait = min(wait, self._timings.max_retry_after) + self._rng.uniform(0.0, 0.25)
            return _Retry(wait, "rate limited (HTTP 429)")
        if 400 <= status < 500 and status != 408:
            # A request the service will refuse every time (bad filters): retrying cannot help.
            self._set_state(
                FeedState.OFFLINE, f"the feed refused the request (HTTP {status}) {body}"
            )
            return _Stop()
        return _Retry(self._backoff.next_delay(), f"the feed answered HTTP {status}")

    def _begin_connection(self, ws: ClientConnection, resume_from: int | None) -> None:
        self._ws = ws
        self._welcome = None
        self._buffer = None
        self._replay_target = None
        self._resync_pending = ""
        self._silent = False
        self._held = False
        self._live_seen = False
        self._last_frame = self._clock()
        if resume_from is None:
            self._cursor = None  # no resume: the stream starts now; the snapshot sets the cursor
        # Score and status are not replayed: whatever we had may be behind now.
        self._scores_stale = True
        mark_stale = getattr(self.book, "mark_scores_stale", None)
        if mark_stale is not None:
            with self.lock:
                mark_stale()
        if self._on_scores_stale is not None:
            self._on_scores_stale()

    def _end_connection(self) -> None:
        task = self._resync_task
        self._resync_task = None
        if task is not None and not task.done():
            task.cancel()
        self._cancel_loads()
        if self._loading:
            self._needs_snapshot = True  # events never loaded: start over with a full snapshot
        self._loading.clear()
        self._load_buffer = []
        self._load_pending = ""
        # A replay cut short is dropped whole: the cursor did not move, so it comes again. A
        # resync cut short leaves `_needs_snapshot` set, so the next connection starts over.
        self._buffer = None
        self._replay_target = None
        self._ws = None

    def _after_close(self, ws: ClientConnection, opened: float) -> None:
        if self._stop_requested:
            raise _Retry(0.0, "stopped")
        code = ws.close_code
        reason = plain(ws.close_reason or "")
        now = self._clock()
        if code == CLOSE_REPLACED:
            self._replaced(reason or "replaced by a newer connection")
        last = self._last_frame
        healthy = (
            self._live_seen and last is not None and now - last <= self._timings.replaced_window
        )
        if code == CLOSE_NORMAL and self._live_seen:
            # Nothing else ends a streaming feed with 1000 (restarts say 1001 or 1012). Taking a
            # second one to be sure would mean reconnecting once, knocking off the newer client.
            self._replaced("closed with code 1000 while streaming")
        if code == CLOSE_TRY_LATER and healthy:
            memory = self._timings.replaced_memory
            self._suspect_closes = [t for t in self._suspect_closes if now - t <= memory]
            self._suspect_closes.append(now)
            if len(self._suspect_closes) >= 2:
                self._replaced(f"closed with code {code} twice while streaming")
        if now - opened >= self._timings.hold:
            self._backoff.reset()
        raise _Retry(self._backoff.next_delay(), f"connection closed (code {code})")

    def _replaced(self, why: str) -> None:
        self._set_state(
            FeedState.REPLACED,
            f"replaced by another client using this API key ({why}); not reconnecting",
        )
        raise _Stop()

    # ------------------------------------------------------------------ the socket reader

    def _on_frame(self, frame: str | bytes, gen: int) -> None:
        if gen != self._generation:
            return
        now = self._clock()
        self._last_frame = now
        counters = self.counters
        counters.frames += 1
        malformed = 0
        applied_before = counters.messages
        with self.lock:
            # Each message is applied while it is still in cache.
            for message in iter_frame(frame, now, self._keep_lines):
                if message is None:
                    malformed += 1
                    continue
                try:
                    self._dispatch(message, gen)
                except Exception:  # a message the book cannot take must not end the feed
                    counters.malformed += 1
                    if now - self._last_malformed_warning >= 60.0:
                        self._last_malformed_warning = now
                        log.exception("feed: a message could not be applied; skipped")
        if malformed:
            self._malformed(malformed)
        refresh = self._silent
        self._silent = False
        if self._replay_target is not None and self._resync_task is None:
            self._check_replay_done(now)
        elif not self._live_seen and counters.messages > applied_before:
            self._live_seen = True  # a live message after any replay: the connection held up
            refresh = True
        if refresh:
            self._refresh_state()

    def _dispatch(self, message: Message, gen: int) -> None:
        kind = type(message)
        if self._buffer is not None and (
            kind is OddsMessage or kind is ScoreMessage or kind is StatusMessage
        ):
            self._buffer.append(message)
        elif kind is OddsMessage:
            if self._loading and message.event_id in self._loading:  # type: ignore[union-attr]
                self._load_buffer.append(message)  # type: ignore[arg-type]
            else:
                self._apply_odds(message)  # type: ignore[arg-type]
        elif kind is ScoreMessage or kind is StatusMessage:
            self.book.apply(message)
            self.counters.messages += 1
        elif kind is Welcome:
            self._on_welcome(message, gen)  # type: ignore[arg-type]
        elif kind is ResyncRequired:
            self._on_resync_required(message, gen)  # type: ignore[arg-type]
        elif kind is RelayStatus:
            self._on_relay(message)  # type: ignore[arg-type]

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

    # ------------------------------------------------------------------ control messages

    def _on_relay(self, relay: RelayStatus | None) -> None:
        """Behind a relay, its upstream's state is part of what the user must see."""
        if relay == self._relay:
            return
        self._relay = relay
        if self._on_state_change is not None:
            self._on_state_change(self.status())

    def _on_welcome(self, welcome: Welcome, gen: int) -> None:
        self._welcome = welcome
        self.book.complete_markets = welcome.complete_markets
        self._on_relay(welcome.relay)
        cursor = self._cursor
        if self._needs_snapshot or cursor is None:
            if cursor is None and welcome.seq is not None:
                self._cursor = welcome.seq
            self._start_resync("loading a snapshot", gen)
        elif welcome.seq is not None and welcome.seq < cursor:
            # The service's sequence went back: it restarted. The cursor means nothing there.
            self._needs_snapshot = True
            self._cursor = welcome.seq
            self._start_resync("the service restarted", gen)
        elif welcome.seq is not None and welcome.seq > cursor:
            self._replay_target = welcome.seq
            self._buffer = []
            self._set_state(FeedState.REPLAYING, f"replaying from seq {cursor}")
        else:
            self._mark_live_if_connected()

    def _on_resync_required(self, message: ResyncRequired, gen: int) -> None:
        self._needs_snapshot = True
        # The old cursor is meaningless now (too old, or from a service that restarted).
        self._cursor = message.seq
        self._floors = {}
        self._replay_target = None
        reason = plain(message.reason) or "the service asked for a resync"
        self._start_resync(f"resync required: {reason}", gen)

    def _check_replay_done(self, now: float) -> None:
        target = self._replay_target
        assert target is not None
        buffer = self._buffer or []
        reached = any(type(m) is OddsMessage and m.seq >= target for m in buffer[-64:])
        if reached or now - (self._last_frame or now) >= self._timings.replay_quiet:
            self._finish_replay()

    def _finish_replay(self) -> None:
        with self.lock:
            self._replay_target = None
            self._apply_buffer()
        self._mark_live_if_connected()

    # ------------------------------------------------------------------ resync

    def _snapshot_ids(self) -> tuple[int, ...]:
        return self._tracked or self.filters.event_ids

    def _snapshot_bookmakers(self) -> tuple[str, ...]:
        if self._fixed_bookmakers:
            return self._fixed_bookmakers
        return self._welcome.bookmakers if self._welcome is not None else ()

    def _start_resync(self, reason: str, gen: int) -> None:
        if self._resync_task is not None and not self._resync_task.done():
            return
        if self._on_resync is not None:
            # The stream restarts here: nothing before the cursor is known to have been seen.
            self._on_resync(self._cursor, reason)
        ids = self._snapshot_ids()
        books = self._snapshot_bookmakers()
        if not ids or not books or self._api is None:
            # Nothing to fetch: the stream from here on is all there is.
            with self.lock:
                self._needs_snapshot = False
                self._replay_target = None
                self._apply_buffer()
            self._mark_live_if_connected()
            return
        if self._buffer is None:
            self._buffer = []
        # A full snapshot covers every tracked event: loads under way would only race it.
        self._cancel_loads()
        self._buffer[:0] = self._load_buffer
        self._load_buffer = []
        self._loading.clear()
        self._load_pending = ""
        self._set_state(FeedState.RESYNCING, reason)
        self._resync_task = asyncio.get_running_loop().create_task(self._resync(gen, ids, books))

    async def _resync(self, gen: int, ids: tuple[int, ...], books: tuple[str, ...]) -> None:
        id_chunks = [
            ids[i : i + MAX_IDS_PER_SNAPSHOT] for i in range(0, len(ids), MAX_IDS_PER_SNAPSHOT)
        ]
        book_chunks = [
            books[i : i + MAX_BOOKMAKERS_PER_SNAPSHOT]
            for i in range(0, len(books), MAX_BOOKMAKERS_PER_SNAPSHOT)
        ]
        # A snapshot bigger than the bucket still goes through when the bucket is full.
        cost = min(float(len(id_chunks) * len(book_chunks)), self._bucket.capacity)
        while True:
            if not self._bucket.take(cost):
                await self._postpone(
                    self._bucket.wait_time(cost), "REST budget for resyncs used up"
                )
                continue
            try:
                parts = await self._fetch(ids, books)
            except RateLimited as error:
                wait = error.retry_after if error.retry_after is not None else 60.0
                await self._postpone(wait, "the hourly REST limit is reached")
                continue
            except (Unauthorized, Forbidden) as error:
                self._set_state(FeedState.STALE, f"snapshot refused: {plain(str(error))}")
                self._resync_task = None
                return
            except (OddsApiError, OSError) as error:
                why = plain(redact(str(error), self._key)) or type(error).__name__
                delay = self._rng.uniform(0.5, 1.0) * self._timings.resync_retry
                await self._postpone(delay, f"snapshot failed: {why}")
                continue
            break
        if gen != self._generation:
            return
        self._install(parts, set(ids))

    async def _postpone(self, delay: float, why: str) -> None:
        """Stay stale with the socket open; meanwhile apply the live stream as it comes."""
        with self.lock:
            self._apply_buffer()
        self._resync_pending = f"{why}; resync in {delay:.0f} s"
        self._set_state(FeedState.STALE, self._resync_pending)
        await asyncio.sleep(delay)
        with self.lock:
            self._buffer = []
        self._resync_pending = ""
        self._set_state(FeedState.RESYNCING, "retrying the snapshot")

    def _install(self, parts: list[tuple[list[OddsRecord], int]], fetched: set[int]) -> None:
        seqs = [seq for _, seq in parts]
        low, high = min(seqs), max(seqs)
        floors: dict[int, int] = {}
        records: list[OddsRecord] = []
        for part_records, seq in parts:
            records.extend(self._subscribed_only(r) for r in part_records)
            if seq > low:
                for record in part_records:
                    floors[record.event.id] = max(seq, floors.get(record.event.id, seq))
        with self.lock:
            self.book.install_snapshot(records)
            self._cursor = low  # a reset, not a max (FEED-CLIENT rule 4.4)
            self._floors = floors
            self._floors_until = high
            self._needs_snapshot = False
            self._replay_target = None
            self._apply_buffer()
        self.counters.resyncs += 1
        self._resync_task = None
        self._mark_live_if_connected()
        missing = tuple(i for i in self._snapshot_ids() if i not in fetched)
        if missing:  # track() added events while this one ran
            self._start_load(missing, self._generation)

    # ------------------------------------------------------------------ loading tracked events

    def _start_load(self, ids: tuple[int, ...], gen: int) -> None:
        """Snapshot events that `track()` added, leaving the rest of the board live.

        Their odds messages are held back during the fetch; after the install, those above the
        snapshot's seq are applied. The cursor does not move: the stream's position is unchanged.
        Loads are user-driven, one REST call per 10 events, so they skip the resync bucket; the
        hourly limit (429) still holds them back.
        """
        books = self._snapshot_bookmakers()
        if not books or self._api is None:
            return
        self._loading.update(ids)
        task = asyncio.get_running_loop().create_task(self._load(gen, ids, books))
        self._load_tasks.add(task)
        task.add_done_callback(self._load_tasks.discard)

    def _cancel_loads(self) -> None:
        for task in list(self._load_tasks):
            task.cancel()
        self._load_tasks.clear()

    async def _load(self, gen: int, ids: tuple[int, ...], books: tuple[str, ...]) -> None:
        while True:
            try:
                parts = await self._fetch(ids, books)
            except RateLimited as error:
                wait = error.retry_after if error.retry_after is not None else 60.0
                self._load_pending = (
                    f"odds of {len(ids)} new events wait for the hourly REST limit "
                    f"(retry in {wait:.0f} s)"
                )
                self._refresh_state()
                await asyncio.sleep(wait)
                continue
            except (Unauthorized, Forbidden) as error:
                self._load_pending = f"odds of new events refused: {plain(str(error))}"
                self._refresh_state()
                return
            except (OddsApiError, OSError):
                await asyncio.sleep(self._rng.uniform(0.5, 1.0) * self._timings.resync_retry)
                continue
            break
        if gen != self._generation:
            return
        floors: dict[int, int] = {}
        records: list[OddsRecord] = []
        for part_records, seq in parts:
            for record in part_records:
                records.append(self._subscribed_only(record))
                floors[record.event.id] = max(seq, floors.get(record.event.id, seq))
        loaded = set(ids)
        with self.lock:
            self.book.install_snapshot(records)
            for event_id, seq in floors.items():
                self._floors[event_id] = max(seq, self._floors.get(event_id, seq))
            self._floors_until = max([self._floors_until, *floors.values()])
            held = [m for m in self._load_buffer if m.event_id in loaded]
            self._load_buffer = [m for m in self._load_buffer if m.event_id not in loaded]
            self._loading -= loaded
            for message in held:  # older than the cursor, maybe: only the floor decides
                if message.seq <= floors.get(message.event_id, -1):
                    self.counters.duplicates += 1
                else:
                    self.book.apply(message)
                    self.counters.messages += 1
        self.counters.loads += 1
        self._load_pending = ""
        self._refresh_state()

    async def _fetch(
        self, ids: tuple[int, ...], books: tuple[str, ...]
    ) -> list[tuple[list[OddsRecord], int]]:
        assert self._api is not None
        parts = []
        for start in range(0, len(ids), MAX_IDS_PER_SNAPSHOT):
            for first in range(0, len(books), MAX_BOOKMAKERS_PER_SNAPSHOT):
                parts.append(
                    await self._api.odds_multi_with_seq(
                        ids[start : start + MAX_IDS_PER_SNAPSHOT],
                        books[first : first + MAX_BOOKMAKERS_PER_SNAPSHOT],
                    )
                )
        return parts

    def _subscribed_only(self, record: OddsRecord) -> OddsRecord:
        """The record without the markets the feed does not carry: the feed would never update
        them, so they would sit in the book looking live while going stale."""
        if "odds" not in self.filters.channels or not self.filters.markets:
            return record
        wanted = {name.casefold() for name in self.filters.markets}
        books = {
            bookie: tuple(q for q in quotes if q.name.casefold() in wanted)
            for bookie, quotes in record.bookmakers.items()
        }
        return replace(record, bookmakers=books)

    # ------------------------------------------------------------------ liveness and state

    async def _watch(self, gen: int, opened: float) -> None:
        t = self._timings
        tick = max(0.02, min(0.25, t.stale_after / 4, t.replay_quiet / 2))
        while gen == self._generation:
            await asyncio.sleep(tick)
            now = self._clock()
            last = self._last_frame if self._last_frame is not None else opened
            if (
                self._replay_target is not None
                and self._resync_task is None
                and now - last >= t.replay_quiet
            ):
                self._finish_replay()
            if not self._silent and now - last >= t.stale_after:
                self._silent = True
                self._refresh_state()
            if not self._held and (now - opened >= t.hold or self._live_seen):
                self._held = True
                self._backoff.reset()

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
