"""Snapshots over REST for `FeedClient`: the resync (stream buffered, snapshot installed in one
step, cursor set to its seq) and the per-event loads of events added with `track()`."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace

from oddstui.api.errors import (
    Forbidden,
    OddsApiError,
    RateLimited,
    Unauthorized,
)
from oddstui.api.feed_base import (
    MAX_BOOKMAKERS_PER_SNAPSHOT,
    MAX_IDS_PER_SNAPSHOT,
    FeedBase,
)
from oddstui.api.feed_state import FeedState
from oddstui.api.models import OddsRecord
from oddstui.api.redact import plain, redact

log = logging.getLogger("oddstui.feed")


class FeedSnapshots(FeedBase):
    def _snapshot_ids(self) -> tuple[int, ...]:
        return self._tracked or self.filters.event_ids

    def _snapshot_bookmakers(self) -> tuple[str, ...]:
        if self._fixed_bookmakers:
            return self._fixed_bookmakers
        if self._selection is not None:
            return self._selection
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
