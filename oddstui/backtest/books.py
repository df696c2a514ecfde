"""`oddstui books`: a recording's price changes through the bookmaker intelligence engine.

The recording is read and decoded by the backtest's own feeder (`BookFeeder`: the feed client's
fast decoders and the line store that says which prices each message changed), and each change
goes to `IntelEngine.observe` in the order received: one incremental engine, the same the desk
runs live, rather than a second one over Parquet (one engine cannot drift from another).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from oddstui.backtest.engine import collector_paused
from oddstui.backtest.feeding import BookFeeder
from oddstui.intel.engine import IntelEngine, observe_quotes
from oddstui.intel.report import IntelReport, report_of
from oddstui.intel.settings import IntelSettings
from oddstui.recording.records import FeedMessage, Record


@dataclass(slots=True)
class BooksRun:
    engine: IntelEngine
    report: IntelReport
    messages: int
    malformed: int
    seconds: float
    """Wall-clock seconds the run took."""
    titles: dict[int, str]


def books_of(records: Iterable[Record], settings: IntelSettings | None = None,
             complete_markets: bool = False) -> BooksRun:
    started = time.perf_counter()
    feeder = BookFeeder()
    feeder.lines.complete_markets = complete_markets
    engine = IntelEngine(settings)
    observe = engine.observe
    with collector_paused():
        for record in records:
            touched = feeder.apply(record)
            stamp = record.time
            for event_id, status in touched.status:
                if status == "live":
                    engine.in_play.add(event_id)
                else:
                    engine.in_play.discard(event_id)
            bookmaker = touched.bookmaker
            if bookmaker is not None:
                for state, _, new in touched.changes:
                    observe(stamp, state.key, bookmaker, new)
            if touched.lines and not isinstance(record, FeedMessage):
                for key in sorted(touched.lines, key=repr):
                    observe_quotes(engine, stamp, key, feeder.lines.quotes(key))
        engine.finish()
        report = report_of(engine)
    titles = {}
    for event_id in {steam.key[0] for steam in report.steam if isinstance(steam.key, tuple)}:
        event = feeder.book.event(event_id)
        if event is not None and event.header is not None:
            titles[event_id] = f"{event.header.home} v {event.header.away}"
    return BooksRun(engine, report, feeder.messages, feeder.malformed,
                    time.perf_counter() - started, titles)
