"""`oddstui record`: the project's feed client taps a v3 feed and a `RecordingWriter` keeps what
it receives, exactly: a REST snapshot of the tracked (live) events at the start and after every
resync (a gap, then the snapshot), then every message with its receive time and seq.

The feed client does the hard parts (FEED-CLIENT.md): a cut resumes with lastSeq, so nothing is
lost; `resync_required` or a restarted service calls `on_resync`, which writes the gap. The
recorder only sees what the client applies to its book, in that order, so a reader that applies
the records in order rebuilds the client's book.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from oddstui.api.feed import FeedClient, FeedTimings
from oddstui.api.feed_url import FeedFilters
from oddstui.recording.headers import PASS_EVERY
from oddstui.recording.raw_api import RawApi
from oddstui.recording.tap import EVENTS_EVERY, RecordingTap
from oddstui.recording.writer import RecordingWriter


@dataclass(frozen=True, slots=True)
class RecordOptions:
    out: Path
    base_url: str
    key: str = field(repr=False)  # never in a log or a traceback
    markets: tuple[str, ...]
    duration: float | None = None  # wall seconds
    max_size: int | None = None  # bytes
    events_every: float = EVENTS_EVERY
    timings: FeedTimings | None = None  # the feed client's (tests shorten them)


class Recorder:
    def __init__(
        self, options: RecordOptions, *, on_ready: Callable[[str], None] | None = None
    ) -> None:
        self.options = options
        self._on_ready = on_ready
        self.writer: RecordingWriter | None = None
        self.client: FeedClient | None = None
        self.tap: RecordingTap | None = None
        self._resyncs = 0

    async def run(self, stop: asyncio.Event) -> None:
        """Record until `stop` is set or `duration` has passed; the recording is then closed."""
        o = self.options
        async with RawApi(o.base_url, o.key) as api:
            bookmakers = list((await api.selected_bookmakers()).bookmakers)
            live = await api.live_events_raw()
            writer = self.writer = RecordingWriter(
                o.out,
                source=api.base_url,
                markets=list(o.markets),
                bookmakers=bookmakers,
                max_size=o.max_size,
            )
            tap = self.tap = RecordingTap(writer, api, o.markets)
            client = self.client = FeedClient(
                api.base_url,
                o.key,
                tap,
                api,
                filters=FeedFilters(markets=o.markets),
                track=[e["id"] for e in live if isinstance(e.get("id"), int)],
                keep_lines=True,
                on_resync=self._on_resync,
                timings=o.timings,
            )
            feed = asyncio.create_task(client.run(), name="record-feed")
            if self._on_ready is not None:
                self._on_ready(f"recording {api.base_url} into {o.out}")
            try:
                await self._until_done(stop, api, client, tap)
            finally:
                client.stop()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(feed, 10.0)
                writer.close()

    def _on_resync(self, cursor: int | None, reason: str) -> None:
        self._resyncs += 1
        if self._resyncs > 1 and self.writer is not None:  # the first is the start
            self.writer.gap(cursor, reason)

    async def _until_done(
        self, stop: asyncio.Event, api: RawApi, client: FeedClient, tap: RecordingTap
    ) -> None:
        o = self.options
        loop = asyncio.get_running_loop()
        deadline = None if o.duration is None else loop.time() + o.duration
        next_events = loop.time() + o.events_every
        next_headers = loop.time()
        while not stop.is_set():
            now = loop.time()
            if deadline is not None and now >= deadline:
                return
            wait = 1.0 if deadline is None else min(1.0, deadline - now)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), max(wait, 0.0))
            with client.lock:
                tap.writer.flush()
            if loop.time() >= next_events:
                next_events = loop.time() + o.events_every
                await self._refresh_events(api, client, tap)
            if loop.time() >= next_headers:
                next_headers = loop.time() + PASS_EVERY
                headers = await tap.headers.fetch(api)
                with client.lock:
                    tap.write_events(headers)

    async def _refresh_events(self, api: RawApi, client: FeedClient, tap: RecordingTap) -> None:
        """New live matches are tracked (the client snapshots them); clocks and scores of the
        rest are kept current with an events-only snapshot."""
        try:
            live = await api.live_events_raw()
        except Exception:  # noqa: BLE001 - a failed refresh waits for the next one
            return
        with client.lock:
            tap.write_events(live)
        client.track([e["id"] for e in live if isinstance(e.get("id"), int)])
