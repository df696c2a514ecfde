"""Shared pieces of the feed tests: short timings, a running client, and the recovery invariant.

The invariant of every fault-injection test: after recovery the book equals what the service
answers on GET /odds/multi, and no odds message was applied twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import replace
from typing import Any

from oddstui.api.feed import FeedClient, FeedTimings
from oddstui.api.messages import Message, OddsMessage
from oddstui.api.models import OddsRecord
from oddstui.book.oddsbook import OddsBook
from oddstui.book.views import book_view, record_view, view_differences

FAST = FeedTimings(
    backoff_base=0.05,
    backoff_cap=0.5,
    hold=30.0,
    stale_after=5.0,
    ping_interval=5.0,
    ping_timeout=5.0,
    open_timeout=3.0,
    close_timeout=1.0,
    replay_quiet=0.3,
    replaced_window=5.0,
    replaced_memory=600.0,
    resync_retry=0.2,
)


def timings(**changes: Any) -> FeedTimings:
    return replace(FAST, **changes)


class RecordingBook(OddsBook):
    """The real book, plus a ledger of the odds seqs applied since each snapshot install."""

    def __init__(self) -> None:
        super().__init__()
        self.epochs: list[list[int]] = [[]]
        self.installs = 0

    def apply(self, message: Message) -> None:
        if isinstance(message, OddsMessage):
            self.epochs[-1].append(message.seq)
        super().apply(message)

    def install_snapshot(
        self, records: Iterable[OddsRecord], received: float | None = None
    ) -> None:
        self.installs += 1
        self.epochs.append([])
        super().install_snapshot(records, received)

    def applied_twice(self) -> list[int]:
        """Seqs applied more than once, or out of order, within one snapshot epoch."""
        bad: list[int] = []
        for seqs in self.epochs:
            bad.extend(b for a, b in zip(seqs, seqs[1:], strict=False) if b <= a)
        return bad

    @property
    def odds_applied(self) -> int:
        return sum(len(seqs) for seqs in self.epochs)


def differences(book: OddsBook, records: Iterable[OddsRecord]) -> list[str]:
    found: list[str] = []
    for record in records:
        for line in view_differences(record_view(record), book_view(book, record.event.id)):
            found.append(f"event {record.event.id}: {line}")
    return found


async def wait_until(
    predicate: Callable[[], bool], timeout: float = 10.0, what: str = "condition"
) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        await asyncio.sleep(0.02)


@contextlib.asynccontextmanager
async def running(client: FeedClient) -> AsyncIterator[asyncio.Task[None]]:
    task = asyncio.create_task(client.run())
    try:
        yield task
    finally:
        client.stop()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, timeout=5.0)
