"""Shared pieces of the feed tests: short timings, a running client, and the recovery invariant.

The invariant of every fault-injection test: after recovery the book equals what the service
answers on GET /odds/multi, and no odds message was applied twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import socket
import time
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import replace
from typing import Any

from oddstui.api.feed import FeedClient, FeedTimings
from oddstui.api.feed_state import FeedState, FeedStatus
from oddstui.api.messages import OddsMessage
from oddstui.api.models import OddsRecord
from oddstui.api.rest import ApiClient
from oddstui.book.oddsbook import OddsBook
from tests.api.feed_service import FEED_KEY, FeedService
from tests.odds_views import OddsView, book_view, record_view, view_differences

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
    """The real book, plus a ledger of the odds messages applied since each snapshot install."""

    def __init__(self) -> None:
        super().__init__()
        self.epochs: list[list[OddsMessage]] = [[]]
        self.installs = 0

    def apply_odds(self, message: OddsMessage) -> None:
        self.epochs[-1].append(message)
        super().apply_odds(message)

    def install_snapshot(
        self, records: Iterable[OddsRecord], received: float | None = None
    ) -> None:
        self.installs += 1
        self.epochs.append([])
        super().install_snapshot(records, received)

    def applied_twice(self) -> list[int]:
        """Seqs applied more than once, or out of order, within one snapshot epoch."""
        bad: list[int] = []
        for messages in self.epochs:
            seqs = [m.seq for m in messages]
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


def subscribed(view: OddsView, markets: Iterable[str]) -> OddsView:
    """The view restricted to the markets the feed carries (REST answers with all of them)."""
    wanted = {name.casefold() for name in markets}
    kept = {
        bookie: {name: lines for name, lines in held.items() if name.casefold() in wanted}
        for bookie, held in view.items()
    }
    return {bookie: held for bookie, held in kept.items() if held}


def rolled_forward(
    records: Iterable[OddsRecord],
    messages: Iterable[OddsMessage],
    markets: Iterable[str],
    complete: bool = False,
) -> dict[int, OddsView]:
    """The REST snapshot moved forward by the feed messages after its seq (merge by market
    name, as the feed contract says; replace when each message is `complete`): what the book
    must hold at that later cursor."""
    views = {r.event.id: subscribed(record_view(r), markets) for r in records}
    wanted = {name.casefold() for name in markets}
    for message in messages:
        view = views.get(message.event_id)
        if view is None:
            continue
        if message.kind in ("deleted", "no_markets"):
            view.pop(message.bookie, None)
            continue
        held = view.setdefault(message.bookie, {})
        if complete:
            held.clear()
        for quote in message.markets:
            if quote.name.casefold() in wanted:
                held[quote.name] = {line.key: (dict(line.prices), line.max) for line in quote.lines}
        if not held:
            view.pop(message.bookie)
    return views


async def assert_matches_service(
    client: FeedClient,
    book: RecordingBook,
    api: ApiClient,
    event_ids: Iterable[int],
    bookmakers: Iterable[str],
) -> None:
    """The invariant: GET /odds/multi (includeSeq) rolled forward to the client's cursor equals
    the book, and no odds message was applied twice."""
    ids = list(event_ids)[:10]
    records, seq = await api.odds_multi_with_seq(ids, list(bookmakers))
    await wait_until(
        lambda: client.last_seq is not None and client.last_seq >= seq, what=f"seq {seq}"
    )
    # A settled or cancelled event's odds are `deleted` on the feed, while REST keeps showing
    # its closing prices: only open events can be compared.
    open_records = [r for r in records if r.event.status not in ("settled", "cancelled")]
    with client.lock:
        cursor = client.last_seq
        assert cursor is not None
        later = [m for m in book.epochs[-1] if seq < m.seq <= cursor]
        complete = book.complete_markets
        expected = rolled_forward(open_records, later, client.filters.markets, complete)
        found: list[str] = []
        for event_id, view in expected.items():
            for line in mismatches(view, book_view(book, event_id), complete):
                found.append(f"event {event_id}: {line}")
        twice = book.applied_twice()
    assert sum(len(view) for view in expected.values()) > 0, "nothing to compare"
    assert found == [], "\n".join(found[:10])
    assert twice == []


def mismatches(expected: OddsView, actual: OddsView, complete: bool = False) -> list[str]:
    """Where the book differs from the service for one event.

    Unless messages are `complete` (the built-in service says so), a market the service dropped
    from a bookmaker's list may linger in the book: the feed contract merges messages by market
    name (the public service sends only what changed), so no message can say "this market is
    gone". Every market the service has must match exactly.
    """
    found: list[str] = []
    for bookie in sorted(set(expected) | set(actual)):
        want, got = expected.get(bookie), actual.get(bookie)
        if want is None:
            found.append(f"{bookie}: in the book, not in the service")
        elif got is None:
            found.append(f"{bookie}: in the service, not in the book")
        else:
            if complete:
                found.extend(
                    f"{bookie}/{m}: in the book, not in the service"
                    for m in got.keys() - want.keys()
                )
            for market, lines in sorted(want.items()):
                if got.get(market) != lines:
                    found.append(f"{bookie}/{market}: service {lines}, book {got.get(market)}")
    return found


async def wait_until(
    predicate: Callable[[], bool], timeout: float = 30.0, what: str = "condition"
) -> None:
    """Until `predicate()` holds; a bound generous enough for a loaded machine (CI shares it)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        await asyncio.sleep(0.02)


async def backoff_periods_pass(count: int = 8, **timing_changes: Any) -> None:
    """The positive marker of "and nothing more happened": a control client with the same
    timings, pointed at a port nobody listens on, makes `count` handshakes on this same loop,
    so `count - 1` of its backoff waits have passed, however loaded the machine is."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    control = FeedClient(
        f"http://127.0.0.1:{port}/v3",
        "k-control-client",
        OddsBook(),
        None,
        track=(),
        rng=random.Random(5),
        timings=timings(**timing_changes),
    )
    async with running(control):
        await wait_until(
            lambda: control.counters.connects >= count,
            timeout=60,
            what=f"{count} handshakes of a control client",
        )


@contextlib.asynccontextmanager
async def running(client: FeedClient) -> AsyncIterator[asyncio.Task[None]]:
    task = asyncio.create_task(client.run())
    try:
        yield task
    finally:
        client.stop()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, timeout=5.0)


@contextlib.asynccontextmanager
async def rest(
    service: FeedService, key: str = FEED_KEY, **kwargs: Any
) -> AsyncIterator[ApiClient]:
    async with ApiClient(service.base_url, key, **kwargs) as api:
        yield api


async def busy_events(api: ApiClient, count: int = 10) -> list[int]:
    """Live events first (their prices move most), then the next ones to start."""
    live = [event.id for event in await api.live_events()]
    upcoming = [event.id for event in await api.events("football", status="pending")]
    return list(dict.fromkeys([*live, *upcoming]))[:count]


async def selected(api: ApiClient) -> list[str]:
    return list((await api.selected_bookmakers()).bookmakers)


class Watcher:
    """Collects every state the client passes through."""

    def __init__(self) -> None:
        self.states: list[FeedState] = []
        self.details: list[str] = []

    def __call__(self, status: FeedStatus) -> None:
        self.states.append(status.state)
        self.details.append(status.detail)


def feed_client(
    base_url: str,
    key: str,
    book: RecordingBook,
    api: Any,
    ids: Iterable[int],
    watcher: Watcher | None = None,
    **kwargs: Any,
) -> FeedClient:
    kwargs.setdefault("timings", timings())
    return FeedClient(
        base_url,
        key,
        book,
        api,
        track=ids,
        rng=random.Random(3),
        on_state_change=watcher,
        **kwargs,
    )


async def streaming(client: FeedClient, messages: int = 20) -> None:
    """Wait until the client is live and has applied some more messages."""
    await wait_until(lambda: client.state is FeedState.LIVE, what="live")
    start = client.counters.messages
    await wait_until(lambda: client.counters.messages >= start + messages, what="traffic")
