"""A feed client's `Book` that writes what the client applies, in the order it applies it, and
passes it on to a real book (the desk's `--record`) or to nothing (`oddstui record`)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterable, Sequence
from typing import Any

from oddstui.api.messages import Message, OddsMessage, ScoreMessage, StatusMessage
from oddstui.api.models import OddsRecord
from oddstui.recording.headers import PASS_EVERY, EventHeaders
from oddstui.recording.raw_api import RawApi
from oddstui.recording.writer import RecordingWriter

EVENTS_EVERY = 30.0  # seconds between /events/live refreshes (new live matches, clocks)


class RecordingTap:
    def __init__(
        self,
        writer: RecordingWriter,
        api: RawApi,
        markets: Sequence[str],
        book: Any = None,
    ) -> None:
        self.writer = writer
        self._api = api
        self._wanted = {name.casefold() for name in markets}
        self._book = book
        self._bookmakers = set(writer.manifest.bookmakers)
        self.headers = EventHeaders()
        self._events_task: asyncio.Task[None] | None = None
        # Receive stamps are monotonic; the records carry unix time.
        self._offset = time.time() - time.monotonic()

    def __getattr__(self, name: str) -> Any:
        # What else the feed client asks of a book (mark_scores_stale, ...) goes to the book.
        if self._book is None:
            raise AttributeError(name)
        return getattr(self._book, name)

    @property
    def complete_markets(self) -> bool:
        return self.writer.manifest.complete_markets

    @complete_markets.setter
    def complete_markets(self, complete: bool) -> None:
        self.writer.manifest.complete_markets = complete  # from the source's welcome
        if self._book is not None:
            self._book.complete_markets = complete

    def install_snapshot(self, records: Iterable[OddsRecord], *args: Any, **kwargs: Any) -> None:
        records = list(records)
        ids = list(dict.fromkeys(record.event.id for record in records))
        raw = self._api.raw_odds
        odds = [self._subscribed(raw.pop(i)) for i in ids if i in raw]
        events = [self._api.raw_events[i] for i in ids if i in self._api.raw_events]
        for record in odds:
            for bookie in record.get("bookmakers") or {}:
                if bookie not in self._bookmakers:
                    self._bookmakers.add(bookie)
                    self.writer.manifest.bookmakers.append(bookie)
        self.writer.snapshot(events, odds)
        self.headers.written(events)
        for record in odds:  # an event tracked but not live is in no list the tap has read
            self.headers.seen(record["id"])
        if self._book is not None:
            self._book.install_snapshot(records, *args, **kwargs)

    def write_events(self, events: list[dict[str, Any]]) -> None:
        """An events-only snapshot: headers, scores and clocks, no odds."""
        if events:
            self.writer.snapshot(events, [])
            self.headers.written(events)

    def apply_odds(self, message: OddsMessage) -> None:
        received = self._offset + message.received
        self.writer.message_line(message.seq, message.line, received, message.event_id)
        self.headers.seen(message.event_id)
        if message.bookie not in self._bookmakers:  # the desk learns them as they come
            self._bookmakers.add(message.bookie)
            self.writer.manifest.bookmakers.append(message.bookie)
        if self._book is not None:
            self._book.apply_odds(message)

    def apply(self, message: Message) -> None:
        if isinstance(message, OddsMessage):
            self.apply_odds(message)
            return
        if isinstance(message, ScoreMessage | StatusMessage):
            received = self._offset + message.received
            self.writer.message_line(None, message.line, received, message.event_id)
        if self._book is not None:
            self._book.apply(message)

    def keep_events(self, every: float = EVENTS_EVERY) -> None:
        """On the feed's loop: write the live events now and every `every` seconds, and the
        headers of events seen without one (headers.py) every `PASS_EVERY` seconds. The desk gets
        its events over its own REST client, so a recording would otherwise hold none."""
        self._events_task = asyncio.get_running_loop().create_task(self._events_loop(every))

    async def _events_loop(self, every: float) -> None:
        loop = asyncio.get_running_loop()
        next_live = loop.time()
        while True:
            with contextlib.suppress(Exception):  # a failed pass waits for the next one
                if loop.time() >= next_live:
                    next_live = loop.time() + every
                    self.write_events(await self._api.live_events_raw())
                self.write_events(await self.headers.fetch(self._api))
            await asyncio.sleep(min(PASS_EVERY, every))

    async def close(self) -> None:
        """On the feed's loop, after the client stopped: the recording is closed."""
        if self._events_task is not None:
            self._events_task.cancel()
            with contextlib.suppress(BaseException):
                await self._events_task
        self.writer.close()

    def take_changes(self) -> Any:
        return None if self._book is None else self._book.take_changes()

    def _subscribed(self, raw: dict[str, Any]) -> dict[str, Any]:
        """The record with the markets the feed carries only, as the feed client keeps it."""
        books = raw.get("bookmakers")
        if not isinstance(books, dict):
            return raw
        kept = {
            bookie: [
                m
                for m in markets
                if isinstance(m, dict) and str(m.get("name", "")).casefold() in self._wanted
            ]
            if isinstance(markets, list)
            else markets
            for bookie, markets in books.items()
        }
        return {**raw, "bookmakers": kept}


def desk_tap(
    folder: str, base_url: str, api_key: str, book: Any, markets: Sequence[str]
) -> tuple[RawApi, RecordingTap]:
    """The desk's `--record DIR`: the REST client for its snapshots and a tap in front of its
    book (which the feed fills with `markets`), writing into the new folder DIR
    (RecordingError when it cannot be one)."""
    writer = RecordingWriter(folder, source=base_url, markets=list(markets), bookmakers=[])
    api = RawApi(base_url, api_key)
    return api, RecordingTap(writer, api, markets, book)
