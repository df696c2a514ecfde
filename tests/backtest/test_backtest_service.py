"""Backtest a recording of the real `oddstui serve`: every arbitrage the service's
/arbitrage-bets listed while it was recorded is in the backtest's report (issue 20).

The recorder (the project's `Recorder`, in this process) taps the service at --speed 10 for a
few wall seconds while the test polls /arbitrage-bets for the recording's bookmakers. After the
last poll the recorder runs until it has the service's seq of that moment, so the recording
holds every state the polls saw. Compared are the service's arbitrages on the recording's
tracked events (those with a REST snapshot: their whole book is in the recording) and
markets, matched on event, market, line, and the legs' bookmakers and sides.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from oddstui.api.feed_url import FeedFilters
from oddstui.api.models import ArbitrageBet
from oddstui.api.rest import ApiClient
from oddstui.backtest.engine import Judging, run_backtest
from oddstui.book.arbitrage import exhaustive_sides, sport_has_draw
from oddstui.recording import Snapshot, open_recording
from oddstui.recording.recorder import Recorder, RecordOptions
from tests.api.feed_harness import timings, wait_until
from tests.api.feed_service import FEED_KEY, FeedService

pytestmark = [pytest.mark.timeout(240), pytest.mark.slow]

MARKETS = FeedFilters().markets
RECORD_SECONDS = 12.0  # wall seconds of polling; two minutes of the service's clock
Match = tuple[int, str, float | None, str | None, frozenset[tuple[str, str]]]


@contextlib.asynccontextmanager
async def recording(recorder: Recorder) -> AsyncIterator[None]:
    stop = asyncio.Event()
    task = asyncio.create_task(recorder.run(stop))
    try:
        yield
    finally:
        stop.set()
        await asyncio.wait_for(task, 30.0)


def service_match(arb: ArbitrageBet) -> Match:
    legs = frozenset((leg.bookmaker, leg.side) for leg in arb.legs)
    return (arb.event_id, arb.market_name, arb.market_hdp, arb.market_label or None, legs)


async def test_every_arbitrage_the_service_listed_is_in_the_backtest(tmp_path: Path) -> None:
    folder = tmp_path / "rec"
    flags = ("--seed", "7", "--speed", "10", "--updates-per-second", "200")
    listed: dict[Match, ArbitrageBet] = {}
    (tmp_path / "service").mkdir()
    with FeedService(tmp_path / "service", *flags) as service:
        async with ApiClient(service.base_url, FEED_KEY) as api:
            options = RecordOptions(
                out=folder,
                base_url=service.base_url,
                key=FEED_KEY,
                markets=MARKETS,
                events_every=600.0,
                timings=timings(),
            )
            recorder = Recorder(options)
            loop = asyncio.get_running_loop()
            async with recording(recorder):
                await wait_until(
                    lambda: recorder.writer is not None and recorder.writer.records > 50,
                    timeout=60,
                    what="the recorder's first records",
                )
                client = recorder.client
                assert client is not None
                books = list((await api.selected_bookmakers()).bookmakers)
                deadline = loop.time() + RECORD_SECONDS
                while loop.time() < deadline:
                    for arb in await api.arbitrage_bets(books, limit=500):
                        listed.setdefault(service_match(arb), arb)
                    await asyncio.sleep(0.3)
                tracked = [e.id for e in await api.live_events()][:10]
                assert tracked, "the service must have live events"
                _, seq = await api.odds_multi_with_seq(tracked, books)
                await wait_until(lambda: (client.last_seq or 0) >= seq, timeout=60, what="seq")

    recorded = open_recording(folder)
    records = list(recorded.records())
    sport_of = {
        raw["id"]: raw["sport"]["slug"]
        for record in records
        if isinstance(record, Snapshot)
        for raw in record.odds
    }
    markets = {name.casefold() for name in recorded.manifest.markets or MARKETS}
    bookmakers = set(recorded.manifest.bookmakers)
    in_scope = {
        match: arb
        for match, arb in listed.items()
        if arb.event_id in sport_of
        and arb.market_name.casefold() in markets
        and all(leg.bookmaker in bookmakers for leg in arb.legs)
    }
    # The service and the desk's maths agree on which sets are exhaustive (a two-way ML in a
    # sport where a draw can settle it as a loser is none): every listed one is wanted.
    assert in_scope
    for arb in in_scope.values():
        sport = sport_of[arb.event_id]
        assert exhaustive_sides(
            arb.market_name, [leg.side for leg in arb.legs], sport_has_draw(sport)
        ), arb
    wanted = in_scope
    assert wanted, f"the service listed no arbitrage on the recording's events ({len(listed)})"

    # The service lists raw prices (it knows no trader's commission): compared at none.
    complete = recorded.manifest.complete_markets
    report = run_backtest(records, judging=Judging(commission=0.0), complete_markets=complete)
    seen = {
        (a.event_id, a.market, a.line[0], a.line[1], frozenset((b, s) for s, _, b in a.legs))
        for a in report.arbitrages
    }
    missing = [arb for match, arb in wanted.items() if match not in seen]
    assert not missing, (
        f"{len(missing)} of {len(wanted)} listed arbitrages are not in the backtest: "
        + "; ".join(
            f"{a.event_id} {a.market_name} {a.market_hdp} "
            f"{[(leg.side, leg.odds, leg.bookmaker) for leg in a.legs]}"
            for a in missing[:5]
        )
    )
