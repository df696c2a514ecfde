"""The socket reader of `FeedClient`: frames split and parsed, seq checked, control messages
(welcome, resync_required, relay status) acted on, a replay buffered and applied in one step."""

from __future__ import annotations

import logging
import time

from oddstui.api.feed_snapshots import FeedSnapshots
from oddstui.api.feed_state import FeedState
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
from oddstui.api.redact import plain

log = logging.getLogger("oddstui.feed")

#: Longest a frame holds the book's lock at a stretch, in seconds.
LOCK_SLICE = 0.005


class FeedStream(FeedSnapshots):
    def _on_frame(self, frame: str | bytes, gen: int) -> None:
        if gen != self._generation:
            return
        now = self._clock()
        self._last_frame = now
        counters = self.counters
        counters.frames += 1
        malformed = 0
        applied_before = counters.messages
        lock = self.lock
        with lock:
            # Each message is applied while it is still in cache. A big frame (hundreds of
            # messages of 20 markets: 40 ms and more) lets go of the lock every `LOCK_SLICE`
            # seconds, so the UI's reads of the book wait for a slice, never a whole frame.
            slice_end = time.perf_counter() + LOCK_SLICE
            for message in iter_frame(frame, now, self._keep_lines, self._quotes):
                if time.perf_counter() > slice_end:
                    lock.release()
                    time.sleep(0)  # a reader waiting for the lock takes it now
                    lock.acquire()
                    slice_end = time.perf_counter() + LOCK_SLICE
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

    def _on_relay(self, relay: RelayStatus | None) -> None:
        """Behind a relay, its upstream's state is part of what the user must see."""
        if relay == self._relay:
            return
        self._relay = relay
        if self._on_state_change is not None:
            self._on_state_change(self.status())

    def _on_welcome(self, welcome: Welcome, gen: int) -> None:
        self._welcome = welcome
        self._selection = None
        self.book.complete_markets = welcome.complete_markets
        self.replay = welcome.replay
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
