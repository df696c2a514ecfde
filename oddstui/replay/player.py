"""The replay clock and the player: records come out when the replay clock reaches their
receive time, are applied to the state and fanned out in one synchronous step (the server core's
rule: the source changes only between awaits, so a client that connects meanwhile gets each
message once, by replay or live)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

from oddstui.recording.records import FeedMessage, Gap, Record, Snapshot
from oddstui.replay.source import ReplaySource, Sent
from oddstui.replay.state import ReplayState
from oddstui.server.feed.core import FeedCore
from oddstui.server.feed.messages import dumps
from oddstui.server.feed.params import SCORES, STATUS

BURST = 2000  # records applied between yields to the event loop at high speed
ODDS_KINDS = frozenset(("created", "updated", "deleted", "no_markets"))


class ReplayClock:
    """Recorded time now: `origin` at the start, then `speed` recorded seconds a real second."""

    def __init__(self, origin: float, speed: float, monotonic: float | None = None) -> None:
        self.origin = origin
        self.speed = speed
        self._start = time.monotonic() if monotonic is None else monotonic

    def now(self) -> float:
        return self.origin + (time.monotonic() - self._start) * self.speed


class Player:
    def __init__(
        self,
        records: Iterator[Record],
        state: ReplayState,
        source: ReplaySource,
        feed: FeedCore,
        speed: float,
        start_from: float | None = None,
    ) -> None:
        self._records = records
        self.state = state
        self.source = source
        self.feed = feed
        self.speed = speed
        self.clock: ReplayClock | None = None
        self.ended = asyncio.Event()
        self.played = 0  # records applied since the start
        self._next: Record | None = None
        self._gap = ""  # a gap whose clients are not told yet
        self._fast_forward(start_from)

    def _fast_forward(self, start_from: float | None) -> None:
        """Apply everything before `start_from` silently; the clock starts there."""
        for record in self._records:
            if start_from is None or record.time >= start_from:
                self._next = record
                break
            self._apply(record, None)
        origin = (
            start_from
            if start_from is not None
            else (self._next.time if self._next is not None else time.time())
        )
        self.clock = ReplayClock(origin, self.speed)

    async def run(self) -> None:
        assert self.clock is not None
        clock = self.clock
        record = self._next
        while record is not None:
            ahead = (record.time - clock.now()) / self.speed
            if ahead > 0.0005:
                await asyncio.sleep(ahead)
            batch: list[Sent] = []
            count = 0
            now = clock.now()
            # Everything due now, in one step; at high speeds, yield every BURST records.
            while record is not None and record.time <= now and count < BURST:
                self._apply(record, batch)
                count += 1
                record = next(self._records, None)
            if batch:
                self.feed.publish_odds(batch)
            if count >= BURST:
                await asyncio.sleep(0)
        self.ended.set()

    def _apply(self, record: Record, batch: list[Sent] | None) -> None:
        self.played += 1
        if isinstance(record, FeedMessage):
            if self._gap:  # no snapshot came after the gap: the stream goes on from here
                self._resync(batch)
            self._message(record, batch)
        elif isinstance(record, Snapshot):
            self.state.install(record)
            if self._gap:
                self._resync(batch)
        elif isinstance(record, Gap):
            if batch:
                self.feed.publish_odds(batch)
                batch.clear()
            # Clients are told once the snapshot after the gap is in the state, so the REST
            # answers they rebuild from already hold it.
            self._gap = f"the recording has a gap here ({record.reason})"

    def _resync(self, batch: list[Sent] | None) -> None:
        reason, self._gap = self._gap, ""
        self.source.restart()
        if batch is not None:
            self.feed.resync_all(reason)

    def _message(self, record: FeedMessage, batch: list[Sent] | None) -> None:
        message = record.message
        kind = message.get("type")
        before = self.state.where(_int(message.get("id")))[2] if kind == "status" else ""
        self.state.apply(record)
        if batch is None:  # fast-forwarding: state only
            if record.seq is not None and kind in ODDS_KINDS:
                self.source.sent(_sent(record))
            return
        if record.seq is not None and kind in ODDS_KINDS:
            sent = _sent(record)
            self.source.sent(sent)
            batch.append(sent)
        elif kind in ("score", "status"):
            if batch:  # order kept: the odds before it go first
                self.feed.publish_odds(batch)
                batch.clear()
            event_id = _int(message.get("id"))
            where = self.state.where(event_id)
            statuses = (where[2], before) if kind == "status" and before else (where[2],)
            self.feed.publish_event(
                STATUS if kind == "status" else SCORES,
                event_id,
                where,
                statuses,
                record.text or dumps(message),
            )


def _sent(record: FeedMessage) -> Sent:
    message = record.message
    assert record.seq is not None
    return Sent(
        record.seq,
        str(message.get("type")),
        _int(message.get("id")),
        str(message.get("bookie", "")),
        record.text or dumps(message),
    )


def _int(value: object) -> int:
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return -1
