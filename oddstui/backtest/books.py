"""`oddstui books`: a recording's price changes through the bookmaker intelligence engine.

The recording is read and decoded by the backtest's own feeder (`BookFeeder`: the feed client's
fast decoders and the line store that says which prices each message changed), and each change
goes to `IntelEngine.observe` in the order received, at the message's own timestamp (the source's
clock; a snapshot, which has none, at its receive time): one incremental engine, the same the desk
runs live, rather than a second one over Parquet (one engine cannot drift from another).
Decoding is most of the work, so several processes share the events out as the backtest's do
(`backtest.partition`), and their engines are merged (`intel.merge`: exact, every count
belongs to one event).
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from oddstui.backtest.engine import collector_paused
from oddstui.backtest.feeding import BookFeeder
from oddstui.backtest.partition import Share, shares_of
from oddstui.book.state import FINISHED_STATUSES
from oddstui.intel.engine import IntelEngine
from oddstui.intel.merge import merge, shrink
from oddstui.intel.report import IntelReport, report_of
from oddstui.intel.settings import IntelSettings
from oddstui.intel.snapshot import observe_quotes
from oddstui.recording.reader import open_recording
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


@dataclass(slots=True)
class _Watched:
    engine: IntelEngine
    messages: int
    malformed: int
    titles: dict[int, str]


def books_of_recording(path: str | Path, settings: IntelSettings | None = None,
                       workers: int = 1) -> BooksRun:
    """The recording at `path` through the engine, its events shared among `workers`
    processes (1: this one)."""
    started = time.perf_counter()
    recording = open_recording(path)
    complete = recording.manifest.complete_markets
    with collector_paused():  # a collection walks every object the feeders and engines hold
        if workers <= 1:
            parts = [_watch(recording.records(), settings, complete, None)]
        else:
            shares = shares_of(recording.manifest, workers)
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("fork" if "fork" in methods else None)
            with ProcessPoolExecutor(workers - 1, mp_context=context) as pool:
                futures = [pool.submit(watch_share, recording.folder, settings, shares[index])
                           for index in range(1, workers)]
                parts = [_watch(recording.records(), settings, complete, shares[0])]
                parts += [future.result() for future in futures]
        engine = merge([part.engine for part in parts])
        report = report_of(engine)
    titles: dict[int, str] = {}
    for part in parts:
        titles.update(part.titles)
    return BooksRun(engine, report, sum(p.messages for p in parts),
                    sum(p.malformed for p in parts), time.perf_counter() - started, titles)


def books_of(records: Iterable[Record], settings: IntelSettings | None = None,
             complete_markets: bool = False) -> BooksRun:
    """`records` through the engine in this process."""
    started = time.perf_counter()
    part = _watch(records, settings, complete_markets, None)
    report = report_of(part.engine)
    return BooksRun(part.engine, report, part.messages, part.malformed,
                    time.perf_counter() - started, part.titles)


def watch_share(folder: Path, settings: IntelSettings | None, share: Share) -> _Watched:
    """One share of the recording's events through an engine of its own (a worker's part)."""
    recording = open_recording(folder)
    return _watch(recording.records(), settings, recording.manifest.complete_markets, share)


def _watch(records: Iterable[Record], settings: IntelSettings | None, complete: bool,
           share: Share | None) -> _Watched:
    feeder = BookFeeder()
    feeder.lines.complete_markets = complete
    engine = IntelEngine(settings)
    last: float | None = None
    with collector_paused():
        for record in records:
            stamp = record.time
            last = stamp
            if share is not None:
                mine = share.take(record)
                if mine is None:
                    continue
                record = mine
            observe_record(engine, feeder, record, stamp)
        engine.finish(last)
        steam_events = {episode.key[0] for episode in engine.episodes
                        if isinstance(episode.key, tuple)}
        titles = {}
        for event_id in steam_events:
            event = feeder.book.event(event_id)
            if event is not None and event.header is not None:
                titles[event_id] = f"{event.header.home} v {event.header.away}"
        return _Watched(shrink(engine), feeder.messages, feeder.malformed, titles)


def observe_record(engine: IntelEngine, feeder: BookFeeder, record: Record,
                   stamp: float) -> None:
    """One record into the feeder, and what it touched into the engine: the events' status,
    then the changed lines, timed by the source's clock, not by when the message arrived (a
    busy machine, the recorder's or the network, would add its delays to the lags); a snapshot's
    lines as quoted."""
    touched = feeder.apply(record)
    for event_id, status in touched.status:
        if status == "live":
            engine.in_play.add(event_id)
        elif status in FINISHED_STATUSES:
            engine.event_ended(event_id, stamp)
        else:
            engine.in_play.discard(event_id)
    bookmaker = touched.bookmaker
    if bookmaker is not None:
        sent = touched.sent if touched.sent is not None else stamp
        changes = [(state.key, new) for state, _, new in touched.changes]
        engine.observe_many(sent, bookmaker, changes)
    if touched.lines and not isinstance(record, FeedMessage):
        for key in sorted(touched.lines, key=repr):
            observe_quotes(engine, stamp, key, feeder.lines.quotes(key))
