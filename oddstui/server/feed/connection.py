"""One accepted feed connection: its filters, its bounded send queue and its two tasks.

The hub fills a connection synchronously (`add`, then `flush` once per tick); a writer task
drains the queue to the socket and a reader task waits for the client to go away, ignoring any
text it sends. The queue is bounded in characters, and a watcher closes a client whose socket
has not drained for a few seconds (stall.py): either way it is closed with 4008 instead of
stalling the others, growing the service's memory or holding its socket.

Frames go out as bytes built once for every connection that shares them (frames.py): written
straight to the socket when it takes writes at once (no task switch per client), else by the
writer task once it does. Without a `FrameSink` (a server that offers none, or a connection with
permessage-deflate) the writer sends each frame's text through the ASGI send.

A close while the transport's writes are paused cannot go through the ASGI send, which waits for
the buffer to drain: the close frame is then appended to the transport behind the whole frames
already there (so a client that reads again sees it), and the socket is aborted if it has not
drained `close_timeout` later.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Iterable
from dataclasses import replace
from typing import Any, Protocol

from oddstui.server.feed.frames import Frame, FrameCache, FrameSink, split_frames
from oddstui.server.feed.params import FeedFilter
from oddstui.server.feed.stall import (
    CHECK_EVERY,
    STALL_LIMIT,
    DrainWatch,
    abort_if_held,
    close_frame,
)

REPLACED = (4000, "replaced by a newer connection")
SLOW_CONSUMER = (4008, "slow consumer")
GOING_AWAY = (1001, "service shutting down")


class Socket(Protocol):
    """The part of Starlette's WebSocket the connection uses."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...

    async def receive(self) -> Any: ...


class FeedConnection:
    """A connection's state; every method except `run` is synchronous and never blocks."""

    def __init__(
        self,
        socket: Socket,
        key: str,
        feed_filter: FeedFilter,
        *,
        queue_limit: int,
        frame_limit: int,
        close_timeout: float,
        transport: asyncio.Transport | None = None,
        stall_limit: float = STALL_LIMIT,
        sink: FrameSink | None = None,
    ) -> None:
        self.socket = socket
        self._sink = sink
        self._transport = transport
        self._watch = None if transport is None else DrainWatch(transport, stall_limit)
        self._sending = False
        self.key = key
        self.filter = feed_filter
        self.market_key = feed_filter.market_key
        # Connections with equal match keys (and selections) get the same messages each tick.
        self.match_key = replace(feed_filter, last_seq=None)
        self._queue_limit = queue_limit
        self._bound = queue_limit  # raised once to make room for a replay
        self._frame_limit = frame_limit
        self._close_timeout = close_timeout
        self._pending: list[str] = []
        # A list of texts handed over whole by `add_all` and shared with other connections (never
        # changed here); while it is set, `_pending` is empty.
        self._shared: list[str] | None = None
        self._frames: deque[Frame] = deque()
        self._queued = 0
        self._wake = asyncio.Event()
        self._closing: tuple[int, str] | None = None
        self._writer: asyncio.Task[None] | None = None
        self._deadline: asyncio.TimerHandle | None = None
        self._abort: asyncio.TimerHandle | None = None

    @property
    def closing(self) -> bool:
        return self._closing is not None

    def add(self, text: str) -> None:
        """One message for the frame of the current tick."""
        if self._closing is None:
            self._own().append(text)

    def add_all(self, texts: Iterable[str]) -> None:
        """Messages for the current tick. A list is kept as it is, not copied, so that the flush
        can share its frames with the other connections handed the same list: it must not
        change afterwards."""
        if self._closing is not None:
            return
        if type(texts) is list and not self._pending and self._shared is None:
            self._shared = texts
        else:
            self._own().extend(texts)

    def _own(self) -> list[str]:
        if self._shared is not None:
            self._pending, self._shared = list(self._shared), None
        return self._pending

    def flush(self, cache: FrameCache | None = None, *, allowance: bool = False) -> None:
        """End of tick: the pending messages become newline-joined frames, sent at once when the
        socket takes them, else queued for the writer.

        With `allowance` (the welcome and replay) the bound grows by what this flush queues,
        so a large compacted replay does not count as slowness; it shrinks back once drained.
        """
        shared, self._shared = self._shared, None
        pending = self._pending
        if self._closing is not None or (shared is None and not pending):
            pending.clear()
            return
        if shared is not None:
            frames = cache.frames(shared) if cache is not None else self._split(shared)
        else:
            frames = self._split(pending)
            self._pending = []
        size = sum(map(len, frames))
        if allowance:
            self._bound = self._queued + size + self._queue_limit
        elif self._queued + size > self._bound:
            self.close(*SLOW_CONSUMER)
            return
        sink = self._sink
        if sink is not None and self._writer is not None and not self._frames:
            frames = self._write_now(sink, frames)
            if not frames:
                return
            size = sum(map(len, frames))
        self._frames.extend(frames)
        self._queued += size
        self._wake.set()

    def _split(self, texts: list[str]) -> list[Frame]:
        # One frame per tick, split only when it would be unreasonably large for a client.
        return split_frames(texts, self._frame_limit)

    def _write_now(self, sink: FrameSink, frames: list[Frame]) -> list[Frame]:
        """Write what the socket takes now, in order, while the writer is idle; the rest (from
        the first frame it would not take) is returned for the writer."""
        if self._sending:
            return frames
        for index, frame in enumerate(frames):
            if not sink.ready():
                return frames[index:]
            sink.write(frame.wire())
        return []

    def close(self, code: int, reason: str) -> None:
        """Drop what is queued and close with `code` as soon as the socket takes it.

        A client that never reads again cannot take a close frame either: with paused writes
        the frame is put behind the buffered bytes and the socket aborted `close_timeout` later;
        without a transport, the writer is abandoned then (its queue is already freed).
        """
        if self._closing is not None:
            return
        self._closing = (code, reason)
        self._pending.clear()
        self._shared = None
        self._frames.clear()
        self._queued = 0
        self._wake.set()
        if self._writer is None or self._writer.done():
            return
        loop = asyncio.get_running_loop()
        transport = self._transport
        if transport is not None and (self._sending or transport.get_write_buffer_size() > 0):
            # Paused writes: the writer waits (in the ASGI send or the sink's) before writing
            # anything, so cancelling it cannot cut a frame.
            self._writer.cancel()
            if not transport.is_closing():
                transport.write(close_frame(code, reason))
                transport.close()  # sends what is buffered, then closes
            self._abort = loop.call_later(self._close_timeout, abort_if_held, transport)
        else:
            self._deadline = loop.call_later(self._close_timeout, self._writer.cancel)

    async def run(self) -> None:
        """Serve until the client leaves or the connection is closed; never raises."""
        self._writer = asyncio.create_task(self._write())
        reader = asyncio.create_task(self._read())
        watcher = asyncio.create_task(self._watch_drain())
        try:
            done, _ = await asyncio.wait(
                {self._writer, reader}, return_when=asyncio.FIRST_COMPLETED
            )
            if self._writer in done and not reader.done():
                # The close frame went out (or was forced onto a closing transport): give the
                # client a moment to answer it.
                await asyncio.wait({reader}, timeout=self._close_timeout)
        finally:
            if self._closing is None:
                self._closing = (1000, "")
            for task in (self._writer, reader, watcher):
                task.cancel()
            with contextlib.suppress(BaseException):
                await asyncio.gather(self._writer, reader, watcher, return_exceptions=True)
            if self._deadline is not None:
                self._deadline.cancel()
            if self._transport is not None and self._abort is None:
                # Whatever way it ended, the socket is released even if the peer never reads.
                loop = asyncio.get_running_loop()
                self._abort = loop.call_later(
                    self._close_timeout, abort_if_held, self._transport
                )
            self._frames.clear()
            self._queued = 0

    async def _write(self) -> None:
        with contextlib.suppress(Exception):
            while self._closing is None:
                if not self._frames:
                    self._wake.clear()
                    await self._wake.wait()
                    continue
                frame = self._frames.popleft()
                self._queued -= len(frame)
                if self._queued <= self._queue_limit:
                    self._bound = self._queue_limit
                self._sending = True
                if self._sink is not None:
                    await self._sink.send(frame.wire())
                else:
                    await self.socket.send_text(frame.text)
                self._sending = False
            code, reason = self._closing
            await self.socket.close(code, reason)

    async def _watch_drain(self) -> None:
        watch = self._watch
        if watch is None:
            return
        loop = asyncio.get_running_loop()
        while self._closing is None:
            await asyncio.sleep(CHECK_EVERY)
            if watch.stalled(loop.time()):
                self.close(*SLOW_CONSUMER)
                return

    async def _read(self) -> None:
        # Text from the client is ignored; only its going away matters.
        with contextlib.suppress(Exception):
            while True:
                message = await self.socket.receive()
                if message.get("type") == "websocket.disconnect":
                    return
