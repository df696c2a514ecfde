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
from oddstui.book.oddsbook import OddsBook
from oddstui.book.settlement import VOID, ScoreSheet, grade_leg
from oddstui.book.suspect import DEFAULT_SUSPECT_PROFIT
from oddstui.config import DEFAULT_COMMISSION
from oddstui.recording.records import Record

#: The statuses after which an event's prices can no longer be taken: it leaves the lists.
ENDED = ("settled", "cancelled")


@dataclass(frozen=True, slots=True)
class Judging:
    """How the backtest judges prices, as the desk does: the fair price's sharp books, the
    smallest EV, the exchanges' commission and the profit above which an edge is suspect."""

    sharps: tuple[str, ...] = DEFAULT_SHARPS
    min_ev: float = DEFAULT_MIN_EV
    commission: float = DEFAULT_COMMISSION
    suspect_profit: float | None = DEFAULT_SUSPECT_PROFIT


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
    judging: Judging | None = None,
    complete_markets: bool = False,
    share: Share | None = None,
) -> BacktestReport:
    """`complete_markets`: the source said each odds message lists all its bookmaker's
    markets (the manifest's `completeMarkets`), so a market a message leaves out is gone.
    `share`: backtest only these events (`backtest.parallel` runs the shares side by side)."""
    started = time.perf_counter()
    with collector_paused():
        report = _backtest(records, rules, judging or Judging(), complete_markets, share)
    report.seconds = time.perf_counter() - started
    return report


@contextmanager
def collector_paused(freeze: bool = False) -> Iterator[None]:
    """Python's cyclic garbage collector paused: a backtest makes millions of objects that live
    to its end and no reference cycles, and the collector's passes over them took a seventh of
    the engine's time and two thirds of reading a recording (measured: 6,620 against 7,653
    msg/s; 15,886 against 46,227 records/s). Within a pause, another pause leaves it paused.

    `freeze`, for a command that ends with the run: what is left is set aside for good
    (`gc.freeze`; still freed by its reference counts), as the collector's first pass after the
    pause would walk every object the pause let pile up (0.2 s of `oddstui books`' 4.5)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if freeze:
                gc.freeze()
            gc.enable()


def _backtest(
    records: Iterable[Record],
    rules: AlertRules | None,
    judging: Judging,
    complete_markets: bool,
    share: Share | None,
) -> BacktestReport:
    feeder = BookFeeder()
    book = feeder.book
    lines = feeder.lines
    lines.complete_markets = complete_markets
    changed_at: dict[int, float] = {}  # event -> when its score or status last moved
    arbitrages = ArbitrageTracker(judging.suspect_profit, changed_at)
    values = ValueTracker(judging.sharps, judging.min_ev, judging.suspect_profit, changed_at)
    alerts = AlertRunner(rules or AlertRules())
    arbitrage_of = ArbitrageCheck(judging.commission)

    report = BacktestReport()
    now = float("-inf")

    def sport_and_play(event_id: int) -> tuple[bool, bool, bool]:
        """Whether the event's sport has a draw (so it does until known), whether it is in
        play, and whether it has ended (its prices are no longer listed)."""
        sport, status = sport_and_status(book, event_id)
        has_draw = True if sport is None else sport_has_draw(sport)
        return has_draw, status == "live", status in ENDED

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
        for event_id in touched.events:
            changed_at[event_id] = now
        for event_id, status in touched.status:
            if status == "live":
                values.kick_off(event_id)
            elif status in ENDED:  # its prices can no longer be taken: off every list now
                arbitrages.end_event(event_id, now)
                values.end_event(event_id)
        found: list[tuple[LineState, Arbitrage | None]] = []
        bookmaker = touched.bookmaker
        if bookmaker is not None and touched.event_id is not None:  # an odds message
            has_draw, in_play, over = sport_and_play(touched.event_id)
            sharp_moved = bookmaker in values.sharps
            for state, old, new in () if over else touched.changes:
                state.quoted[bookmaker] = now
                best = update(state, bookmaker, old, new)
                if best is not None:  # else the best prices, so the arbitrage, are as they were
                    arb = arbitrage_of(state.key[1], best, has_draw, state.quotes)
                    arbitrages.observe(state, arb, now)
                    found.append((state, arb))  # None too: an arbitrage that ended
                if sharp_moved:
                    values.refresh_fair(state, has_draw)
                    values.check_line(state, in_play, now)
                else:
                    values.check_bookmaker(state, bookmaker, new, in_play, now)
        event_id, has_draw, in_play, over = -1, True, False, False
        for key in touched.lines:  # after a snapshot: each line read afresh
            if key[0] != event_id:
                event_id = key[0]
                has_draw, in_play, over = sport_and_play(event_id)
            if over:
                continue
            state = lines.state(key)
            arb = arbitrage_of(key[1], rebuild(state), has_draw, state.quotes)
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
    settle_value_bets(book, report.value_bets)
    report.messages = feeder.messages
    report.malformed = feeder.malformed
    named = {a.event_id for a in report.arbitrages} | {v.event_id for v in report.value_bets}
    for event_id in named:
        event = book.event(event_id)
        if event is not None and event.header is not None:
            report.titles[event_id] = f"{event.header.home} v {event.header.away}"
    return report


def settle_value_bets(book: OddsBook, bets: list[ValueBetSeen]) -> None:
    """Each value bet's result, by the one settlement rule (`book.settlement.grade_leg`), when
    its event settled within the recording; a cancelled event's bet is void."""
    for bet in bets:
        state = book.event(bet.event_id)
        if state is None or state.header is None or state.status not in ("settled", "cancelled"):
            continue
        if state.status == "cancelled":
            bet.result = VOID
            continue
        if state.scores_stale:
            continue
        scores = state.scores
        hdp, label = bet.line
        sheet = ScoreSheet(scores.home, scores.away, scores.periods)
        graded = grade_leg(
            state.header.sport.slug, bet.market, hdp, bet.side, sheet, label=label or ""
        )
        bet.result = graded.result
