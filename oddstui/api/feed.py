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
- Reconnects use full-jitter backoff, reset only once a connection has held up; while the
  service is not there yet (refused, reset, timed out, no valid HTTP answer, a proxy's 502/503/
  504), a TCP probe each second ends the wait once it answers, so a desk is live again within
  a few seconds of its service's return, behind a proxy as directly.
- A replaced connection never reconnects by itself; 401 and 403 ("not in plan") stop; 429 waits
  for Retry-After.

The socket reader only splits, parses, checks seq, applies to the book and stamps receive time.
The book is mutated under `lock` (a `threading.RLock`), so another thread (the UI) may read it or
call `take_changes()` under the same lock. `FeedThread` runs all of this on its own thread.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import (
    ConnectionClosed,
    InvalidHandshake,
    InvalidMessage,
    InvalidStatus,
    InvalidURI,
)

from oddstui.api.backoff import PROBE_EVERY, probe_address, wait_or_probe
from oddstui.api.budget import retry_after_seconds
from oddstui.api.feed_base import (
    CLOSE_NORMAL,
    CLOSE_REPLACED,
    CLOSE_TRY_LATER,
    Book,
    FeedTimings,
    SnapshotSource,
)
from oddstui.api.feed_state import STOPPED_STATES, FeedState
from oddstui.api.feed_stream import FeedStream
from oddstui.api.feed_url import feed_url
from oddstui.api.redact import plain, redact

__all__ = ["Book", "FeedClient", "FeedTimings", "SnapshotSource"]

log = logging.getLogger("oddstui.feed")


class _RedactKey(logging.Filter):
    """The websockets library logs request lines at debug level; they hold the key."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact(record.getMessage())
        record.args = ()
        return True


_ws_log = logging.getLogger("oddstui.feed.ws")
_ws_log.addFilter(_RedactKey())


class _Retry(Exception):
    def __init__(self, delay: float, why: str, unreachable: bool = False) -> None:
        self.delay = delay
        self.why = why
        self.unreachable = unreachable  # the service is not there yet: the wait probes for it


class _Stop(Exception):
    pass


# What a proxy or load balancer answers while the service behind it is down.
NOT_THERE_YET_STATUSES = frozenset({502, 503, 504})


def _not_there_yet(error: BaseException) -> bool:
    """A handshake failure that means "the service is not there yet", so the wait probes for it:
    refused, reset, timed out, or no valid HTTP answer at all (`InvalidMessage`: a TCP proxy,
    SSH tunnel or load balancer accepted the connection and then closed it, its service down).
    Other handshake errors (a bad header, a failed negotiation) would repeat: plain backoff."""
    return isinstance(error, OSError | TimeoutError | EOFError | InvalidMessage)


class FeedClient(FeedStream):
    """One feed connection: `await client.run()` until `stop()`.

    `book` receives `install_snapshot(records)` and `apply(message)` under `lock`; read it from
    other threads under the same lock, or through `take_changes()`. `api` provides snapshots
    (an `ApiClient`); without it, resyncs only reset the cursor.

    `on_resync(cursor, reason)` is called whenever the stream starts over at `cursor` (the first
    welcome, `resync_required`, a restarted service): what came before it may have gaps. With
    `keep_lines`, messages carry their JSON text in `line` (a relay forwards it); with
    `quotes=False` as well, odds messages come without their quotes (`markets` empty): a reader
    that only passes lines on never pays for decoding prices.
    """

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

    def select_bookmakers(self, names: Iterable[str]) -> None:
        """The account's selection changed: reload the tracked events' odds from the new books.

        The feed carries a book's prices only when they move, so without this a book just added
        would show nothing until its next change. The stream's position does not move.
        """
        if self._fixed_bookmakers:
            return
        chosen = tuple(dict.fromkeys(names))
        added = set(chosen) - set(self._snapshot_bookmakers())
        self._selection = chosen
        if not added or not self._tracked or self._api is None:
            return
        if self._ws is None or self._welcome is None:
            self._needs_snapshot = True
        elif self._resync_task is None or self._resync_task.done():
            self._start_load(self._tracked, self._generation)

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
                probe = False
                try:
                    await self._connection()
                    delay, why = self._backoff.next_delay(), "connection closed"
                except _Retry as retry:
                    delay, why, probe = retry.delay, retry.why, retry.unreachable
                except _Stop:
                    self._paused = True
                    continue
                if self._stop_requested:
                    break
                probe = probe and delay > PROBE_EVERY
                sooner = ", sooner once the service answers" if probe else ""
                self._set_state(
                    FeedState.OFFLINE, f"{why}; reconnecting in {delay:.1f} s{sooner}"
                )
                await self._sleep(delay, probe)
        finally:
            self._running = False
            if self._state not in STOPPED_STATES:
                self._set_state(FeedState.OFFLINE, "stopped")

    async def _sleep(self, delay: float, probe: bool = False) -> None:
        assert self._wake is not None
        address = probe_address(self._base_url) if probe else None
        await wait_or_probe(delay, self._wake, address, self._rng)
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
            raise _Retry(self._backoff.next_delay(), why, _not_there_yet(error)) from None

    def _refused(self, error: InvalidStatus) -> Exception:
        response = error.response
        status = response.status_code
        body = plain(redact(bytes(response.body or b"").decode("utf-8", "replace"), self._key))
        if status == 401:
            self._set_state(FeedState.UNAUTHORIZED, "the API key was refused (HTTP 401)")
            return _Stop()
        if status == 403:  # a good key whose plan has no feed: not a key to check
            self._set_state(FeedState.NOT_IN_PLAN, "the feed is not in this plan (HTTP 403)")
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
        why = f"the feed answered HTTP {status}"
        return _Retry(self._backoff.next_delay(), why, status in NOT_THERE_YET_STATUSES)

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
