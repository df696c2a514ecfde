"""The backtest: a recording's records through the books, the desk's rules and maths, in order."""

from __future__ import annotations

import gc
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from oddstui.backtest.alerts import AlertFiring, AlertRunner
from oddstui.backtest.arbitrages import ArbitrageTracker
from oddstui.backtest.best_index import ArbitrageCheck, rebuild, update
from oddstui.backtest.feeding import BookFeeder, sport_and_status
from oddstui.backtest.findings import ArbitrageSeen, ValueBetSeen
from oddstui.backtest.line_state import LineState
from oddstui.backtest.partition import Share
from oddstui.backtest.value_bets import DEFAULT_MIN_EV, DEFAULT_SHARPS, ValueTracker
from oddstui.book.alert_watch import AlertRules
from oddstui.book.arbitrage import Arbitrage, sport_has_draw
from oddstui.recording.records import Record


@dataclass(slots=True)
class BacktestReport:
    alerts: list[AlertFiring] = field(default_factory=list)
    arbitrages: list[ArbitrageSeen] = field(default_factory=list)
    value_bets: list[ValueBetSeen] = field(default_factory=list)
    records: int = 0
    messages: int = 0
    malformed: int = 0
    first_time: float | None = None
    last_time: float | None = None
    seconds: float = 0.0
    """Wall-clock seconds the run took."""
    titles: dict[int, str] = field(default_factory=dict)
    """Event id -> "home v away", for the events the report names."""


def run_backtest(
    records: Iterable[Record],
    rules: AlertRules | None = None,
    *,
    sharps: tuple[str, ...] = DEFAULT_SHARPS,
    min_ev: float = DEFAULT_MIN_EV,
    complete_markets: bool = False,
    share: Share | None = None,
) -> BacktestReport:
    """`complete_markets`: the source said each odds message lists all its bookmaker's
    markets (the manifest's `completeMarkets`), so a market a message leaves out is gone.
    `share`: backtest only these events (`backtest.parallel` runs the shares side by side)."""
    started = time.perf_counter()
    with collector_paused():
        report = _backtest(records, rules, sharps, min_ev, complete_markets, share)
    report.seconds = time.perf_counter() - started
    return report


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused: a backtest makes millions of objects that live
    to its end and no reference cycles, and the collector's passes over them took a seventh of
    the engine's time and two thirds of reading a recording (measured: 6,620 against 7,653
    msg/s; 15,886 against 46,227 records/s)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _backtest(
    records: Iterable[Record],
    rules: AlertRules | None,
    sharps: tuple[str, ...],
    min_ev: float,
    complete_markets: bool,
    share: Share | None,
) -> BacktestReport:
    feeder = BookFeeder()
    book = feeder.book
    lines = feeder.lines
    lines.complete_markets = complete_markets
    arbitrages = ArbitrageTracker()
    values = ValueTracker(sharps, min_ev)
    alerts = AlertRunner(rules or AlertRules())
    arbitrage_of = ArbitrageCheck()
    report = BacktestReport()
    now = float("-inf")

    def sport_and_play(event_id: int) -> tuple[bool, bool]:
        """Whether the event's sport has a draw (so it does until known), and whether it is in
        play."""
        sport, status = sport_and_status(book, event_id)
        return (True if sport is None else sport_has_draw(sport)), status == "live"

    for record in records:
        # Records are in the order the recorder applied them; a snapshot is stamped when
        # written, after messages received (and applied) while it loaded: time never goes back.
        now = max(now, record.time)
        if report.first_time is None:
            report.first_time = now
        report.records += 1
        if share is not None:
            mine = share.take(record)
            if mine is None:
                continue
            record = mine
        touched = feeder.apply(record)
        for event_id, status in touched.status:
            if status == "live":
                values.kick_off(event_id)
        found: list[tuple[LineState, Arbitrage | None]] = []
        bookmaker = touched.bookmaker
        if bookmaker is not None and touched.event_id is not None:  # an odds message
            has_draw, in_play = sport_and_play(touched.event_id)
            sharp_moved = bookmaker in values.sharps
            for state, old, new in touched.changes:
                best = update(state, bookmaker, old, new)
                if best is not None:  # else the best prices, so the arbitrage, are as they were
                    arb = arbitrage_of(state.key[1], best, has_draw)
                    arbitrages.observe(state, arb, now)
                    found.append((state, arb))  # None too: an arbitrage that ended
                if sharp_moved:
                    values.refresh_fair(state, has_draw)
                    values.check_line(state, in_play, now)
                else:
                    values.check_bookmaker(state, bookmaker, new, in_play, now)
        event_id, has_draw, in_play = -1, True, False
        for key in touched.lines:  # after a snapshot: each line read afresh
            if key[0] != event_id:
                event_id = key[0]
                has_draw, in_play = sport_and_play(event_id)
            state = lines.state(key)
            arb = arbitrage_of(key[1], rebuild(state), has_draw)
            arbitrages.observe(state, arb, now)
            found.append((state, arb))
            values.refresh_fair(state, has_draw)
            values.check_line(state, in_play, now)
        if not alerts.idle:
            alerts.observe(feeder, touched, found, now)
    arbitrages.finish(now)
    values.finish()
    report.last_time = now if report.records else None
    report.alerts = alerts.firings
    report.arbitrages = arbitrages.seen
    report.value_bets = values.bets
    report.messages = feeder.messages
    report.malformed = feeder.malformed
    named = {a.event_id for a in report.arbitrages} | {v.event_id for v in report.value_bets}
    for event_id in named:
        event = book.event(event_id)
        if event is not None and event.header is not None:
            report.titles[event_id] = f"{event.header.home} v {event.header.away}"
    return report
