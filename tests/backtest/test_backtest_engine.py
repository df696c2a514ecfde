"""The backtest's engine over records built here: arbitrages, value bets, alerts."""

from __future__ import annotations

import pytest

from oddstui.backtest.engine import run_backtest
from oddstui.backtest.feeding import BookFeeder
from oddstui.backtest.findings import ValueBetSeen
from oddstui.book.alert_rules import ArbitrageRule, PriceRule
from oddstui.book.alert_watch import AlertRules
from oddstui.book.fair import fair_prices
from oddstui.book.fair_policy import FAIR_METHOD
from oddstui.recording.records import Snapshot
from tests.backtest.built import as_read, event, ml, snapshot, status, totals, updated

# Event 1 (tennis: two-way ML). No arbitrage at the start: best home 2.00 (A), away 1.95.
START = snapshot(
    100.0,
    {
        1: {
            "Pinnacle": [ml(1.90, 1.95)],
            "BookA": [ml(2.00, 1.80)],
            "BookB": [ml(1.70, 1.95)],
        }
    },
)
ARB_OPENS = updated(101.0, 1, 1, "BookB", [ml(1.70, 2.10)])  # 1/2.00 + 1/2.10 < 1
ARB_GOES = updated(105.0, 2, 1, "BookB", [ml(1.70, 1.95)])
SHARP_MOVES = updated(108.0, 3, 1, "Pinnacle", [ml(2.05, 1.80)])
KICK_OFF = status(110.0, 1, "live")
SHARP_IN_PLAY = updated(112.0, 4, 1, "Pinnacle", [ml(1.95, 1.90)])
RECORDS = [START, ARB_OPENS, ARB_GOES, SHARP_MOVES, KICK_OFF, SHARP_IN_PLAY]


def test_an_arbitrage_is_seen_from_when_it_opens_to_when_it_goes() -> None:
    report = run_backtest(RECORDS)
    assert len(report.arbitrages) == 1
    arb = report.arbitrages[0]
    assert (arb.event_id, arb.market, arb.line) == (1, "ML", (None, None))
    assert arb.legs == (("home", 2.00, "BookA"), ("away", 2.10, "BookB"))
    assert (arb.first_seen, arb.last_seen, arb.open_at_end) == (101.0, 105.0, False)
    assert arb.duration == pytest.approx(4.0)
    assert arb.best_profit == pytest.approx((1 / (1 / 2.00 + 1 / 2.10) - 1) * 100)
    assert report.titles[1] == "Home 1 v Away 1"


def test_an_arbitrage_still_open_at_the_end_lasts_to_the_last_record() -> None:
    report = run_backtest(RECORDS[:2] + [updated(130.0, 9, 1, "Pinnacle", [ml(1.91, 1.95)])])
    (arb,) = report.arbitrages
    assert (arb.first_seen, arb.last_seen, arb.open_at_end) == (101.0, 130.0, True)


def test_value_bets_close_at_the_sharp_books_fair_price_at_kick_off() -> None:
    report = run_backtest(RECORDS)
    bets: dict[tuple[str, str], ValueBetSeen] = {}
    for bet in report.value_bets:
        bets.setdefault((bet.bookmaker, bet.side), bet)  # the first of each
    assert bets, "the fair price of 1.90/1.95 makes BookA's 2.00 and BookB's 2.10 value"
    home = bets[("BookA", "home")]
    fair_start = fair_prices([1.90, 1.95], FAIR_METHOD)
    assert home.time == 100.0 and home.price == 2.00
    assert home.fair == pytest.approx(fair_start[0])
    assert home.ev == pytest.approx((2.00 / fair_start[0] - 1) * 100)
    close = fair_prices([2.05, 1.80], FAIR_METHOD)  # the sharp book at kick-off, not in play
    assert home.closed_at == "kick-off" and not home.in_play
    assert home.closing_fair == pytest.approx(close[0])
    assert home.clv == pytest.approx((2.00 / close[0] - 1) * 100)
    away = bets[("BookB", "away")]
    assert away.time == 101.0 and away.clv == pytest.approx((2.10 / close[1] - 1) * 100)
    assert ("BookA", "away") not in bets  # 1.80 against a fair ~2.03 is no value
    # BookB's 2.10 stopped being value at 105; its 1.95 is value again once the sharp book
    # moves to 2.05/1.80 at 108: a second bet.
    again = [b for b in report.value_bets if (b.bookmaker, b.side) == ("BookB", "away")]
    assert [(b.time, b.price) for b in again] == [(101.0, 2.10), (108.0, 1.95)]


def test_a_bet_taken_in_play_closes_at_the_sharp_books_last_price() -> None:
    late = updated(111.0, 5, 1, "BookA", [ml(1.85, 2.40)])
    report = run_backtest([*RECORDS[:5], late, RECORDS[5]])
    bet = next(b for b in report.value_bets if b.time == 111.0)
    assert (bet.bookmaker, bet.side, bet.in_play) == ("BookA", "away", True)
    last = fair_prices([1.95, 1.90], FAIR_METHOD)
    assert bet.closed_at == "last" and bet.closing_fair == pytest.approx(last[1])


def test_alert_rules_fire_on_crossings_after_their_baseline() -> None:
    rules = AlertRules()
    rules.add_price(PriceRule(1, "ML", "away", 2.05))
    rules.add_price(PriceRule(1, "ML", "home", 1.99))  # holds at the start
    rules.set_arbitrage(ArbitrageRule(1, 1.0))
    report = run_backtest(RECORDS, rules)
    fired = [(f.time, f.alert.kind, f.alert.price) for f in report.alerts]
    assert (101.0, "price", 2.10) in fired
    profit = (1 / (1 / 2.00 + 1 / 2.10) - 1) * 100
    assert any(t == 101.0 and k == "arbitrage" and p == pytest.approx(profit) for t, k, p in fired)
    assert (110.0, "status", None) in fired
    # The home rule held at the baseline and never crossed again: it never fires.
    assert not [f for f in report.alerts if f.alert.rule == PriceRule(1, "ML", "home", 1.99)]
    assert all(f.event == "Home 1 v Away 1" for f in report.alerts)


def test_an_arbitrage_rule_below_the_profit_does_not_fire() -> None:
    rules = AlertRules()
    rules.set_arbitrage(ArbitrageRule(1, 5.0))
    report = run_backtest(RECORDS, rules)
    assert report.arbitrages and not [f for f in report.alerts if f.alert.kind == "arbitrage"]


def test_a_message_touches_only_the_lines_it_changed() -> None:
    feeder = BookFeeder()
    start = snapshot(1.0, {7: {"BookA": [ml(2.0, 1.9), totals((2.5, 1.9, 1.9), (3.5, 2.5, 1.5))]}})
    touched = feeder.apply(start)
    assert (7, "Totals", (3.5, None)) in touched.lines and (7, "ML", (None, None)) in touched.lines
    change = updated(2.0, 1, 7, "BookA", [ml(2.0, 1.9), totals((2.5, 1.9, 1.9), (3.5, 2.6, 1.5))])
    assert feeder.apply(change).line_keys() == {(7, "Totals", (3.5, None))}
    gone = updated(3.0, 2, 7, "BookA", [ml(2.0, 1.9), totals((2.5, 1.9, 1.9))])
    assert feeder.apply(gone).line_keys() == {(7, "Totals", (3.5, None))}
    assert feeder.lines.quotes((7, "Totals", (3.5, None))) == {}
    assert feeder.lines.quotes((7, "Totals", (2.5, None))) == {"BookA": {"over": 1.9, "under": 1.9}}


def test_malformed_messages_are_counted_and_skipped() -> None:
    bad = as_read(2.0, 1, {**updated(2.0, 1, 1, "BookA", []).message, "markets": "not a list"})
    report = run_backtest([START, bad, ARB_OPENS])
    assert report.malformed == 1 and len(report.arbitrages) == 1


def test_time_never_goes_back_when_a_snapshot_is_stamped_after_later_messages() -> None:
    # The recorder stamps a snapshot when it writes it; messages received while it loaded are
    # applied (and written) after it with their earlier receive times.
    early = updated(99.5, 1, 1, "BookB", [ml(1.70, 2.10)])
    later = updated(100.5, 2, 1, "BookB", [ml(1.70, 1.95)])
    report = run_backtest([START, early, later])
    (arb,) = report.arbitrages
    assert (arb.first_seen, arb.last_seen) == (100.0, 100.5) and arb.duration >= 0
    assert (report.first_time, report.last_time) == (100.0, 100.5)


def test_a_kick_off_seen_in_an_events_snapshot_closes_the_bets_taken_before() -> None:
    live_events = Snapshot(110.0, (event(1, status="live"),), ())
    report = run_backtest([START, ARB_OPENS, ARB_GOES, SHARP_MOVES, live_events, SHARP_IN_PLAY])
    home = next(b for b in report.value_bets if (b.bookmaker, b.side) == ("BookA", "home"))
    close = fair_prices([2.05, 1.80], FAIR_METHOD)
    assert home.closed_at == "kick-off" and home.closing_fair == pytest.approx(close[0])


def test_an_arbitrage_keeps_its_best_profit_when_it_rises_then_falls() -> None:
    rises = updated(102.0, 5, 1, "BookB", [ml(1.70, 2.20)])  # same legs, more profit
    falls = updated(103.0, 6, 1, "BookB", [ml(1.70, 2.15)])  # same legs, less
    report = run_backtest([START, ARB_OPENS, rises, falls, ARB_GOES])
    (arb,) = report.arbitrages
    assert arb.best_profit == pytest.approx((1 / (1 / 2.00 + 1 / 2.20) - 1) * 100)
    assert arb.legs == (("home", 2.00, "BookA"), ("away", 2.20, "BookB"))


def test_a_second_live_status_keeps_the_fair_price_of_the_kick_off() -> None:
    """The closing line is the sharp price when the match went live, not at a later `live`."""
    again = status(114.0, 1, "live")
    report = run_backtest([*RECORDS, again])
    home = next(b for b in report.value_bets if (b.bookmaker, b.side) == ("BookA", "home"))
    close = fair_prices([2.05, 1.80], "shin")  # at 110, not the in-play 1.95/1.90 of 112
    assert home.closed_at == "kick-off"
    assert home.closing_fair == pytest.approx(close[0])


def test_a_new_set_of_legs_is_a_new_arbitrage() -> None:
    """BookC takes the best away price from BookB: the first arbitrage ends, another begins."""
    book_c = updated(103.0, 5, 1, "BookC", [ml(1.60, 2.15)])
    report = run_backtest([START, ARB_OPENS, book_c, ARB_GOES])
    first, second = report.arbitrages
    assert first.legs == (("home", 2.00, "BookA"), ("away", 2.10, "BookB"))
    assert (first.first_seen, first.last_seen) == (101.0, 103.0)
    assert second.legs == (("home", 2.00, "BookA"), ("away", 2.15, "BookC"))
    assert second.first_seen == 103.0


def test_an_arbitrage_rule_fires_again_when_the_arbitrage_comes_back() -> None:
    """Gone at 105 and back at 150 (past the rule's quiet spell): a second crossing, a second
    firing."""
    rules = AlertRules()
    rules.set_arbitrage(ArbitrageRule(1, 1.0))
    back = updated(150.0, 7, 1, "BookB", [ml(1.70, 2.10)])
    report = run_backtest([START, ARB_OPENS, ARB_GOES, back], rules)
    fired = [f.time for f in report.alerts if f.alert.kind == "arbitrage"]
    assert fired == [101.0, 150.0]
