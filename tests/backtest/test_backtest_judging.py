"""The backtest judges as the desk does: an exchange's price net of commission, suspects by
`book.suspect`, and a finished match off every list at its status change."""

from __future__ import annotations

import pytest

from oddstui.backtest.engine import Judging, run_backtest
from oddstui.backtest.report import to_json
from oddstui.book.exchange import paid
from tests.backtest.built import ml, snapshot, status, updated

EXCHANGE = "Betfair Exchange"
START = snapshot(100.0, {1: {"Pinnacle": [ml(1.90, 1.95)], "BookA": [ml(2.00, 1.80)]}})


def test_an_exchange_counts_net_of_commission() -> None:
    # 1/2.00 + 1/2.04 < 1 on raw prices; net of 5 % the exchange's 2.04 pays 1.988: none.
    thin = [START, updated(101.0, 1, 1, EXCHANGE, [ml(1.50, 2.04)])]
    assert run_backtest(thin, judging=Judging(commission=0.0)).arbitrages
    assert not run_backtest(thin, judging=Judging(commission=0.05)).arbitrages

    wide = [START, updated(101.0, 1, 1, EXCHANGE, [ml(1.50, 2.30)])]
    (arb,) = run_backtest(wide, judging=Judging(commission=0.05)).arbitrages
    assert arb.legs == (("home", 2.00, "BookA"), ("away", 2.30, EXCHANGE))  # as quoted
    net = paid(EXCHANGE, 2.30, 0.05)
    assert net == pytest.approx(1 + 1.30 * 0.95)
    assert arb.best_profit == pytest.approx((1 / (1 / 2.00 + 1 / net) - 1) * 100)


def test_a_net_price_below_a_bookmakers_leaves_the_bookmaker_the_best() -> None:
    # The exchange's 2.12 is the best quoted, but nets 2.064 under BookB's 2.10.
    records = [
        START,
        updated(101.0, 1, 1, "BookB", [ml(1.50, 2.10)]),
        updated(102.0, 2, 1, EXCHANGE, [ml(1.50, 2.12)]),
    ]
    found = run_backtest(records, judging=Judging(commission=0.05)).arbitrages
    assert found and found[-1].legs[1] == ("away", 2.10, "BookB")


def test_suspects_are_marked_by_the_desks_rule_and_reported() -> None:
    records = [START, updated(101.0, 1, 1, "BookB", [ml(1.50, 2.10)])]
    profit = (1 / (1 / 2.00 + 1 / 2.10) - 1) * 100
    (calm,) = run_backtest(records, judging=Judging(suspect_profit=profit + 1)).arbitrages
    assert calm.suspect == ""
    report = run_backtest(records, judging=Judging(suspect_profit=profit - 1))
    (arb,) = report.arbitrages
    assert arb.suspect.startswith("profit above")
    row = to_json(report)["arbitrages"][0]
    assert row["suspect"] is True and row["suspectReason"] == arb.suspect
    # A value bet above the bound is marked too.
    assert report.value_bets
    low = run_backtest(records, judging=Judging(suspect_profit=0.0)).value_bets
    assert low and all(bet.suspect for bet in low)
    above = [v for v in to_json(report)["value_bets"] if v["evPct"] > profit - 1]
    assert above and all(v["suspect"] for v in above)


def test_a_leg_quoted_before_the_status_changed_is_suspect() -> None:
    start = snapshot(100.0, {1: {"Pinnacle": [ml(1.90, 1.80)], "BookA": [ml(2.00, 1.80)]}})
    records = [
        start,
        updated(101.0, 1, 1, "BookB", [ml(1.50, 1.90)]),
        status(102.0, 1, "live"),
        updated(103.0, 2, 1, "BookA", [ml(2.20, 1.80)]),  # BookB's 1.90 is older than 102
        updated(104.0, 3, 1, "BookB", [ml(1.50, 1.95)]),  # re-quoted after, and better
    ]
    judging = Judging(suspect_profit=None)
    (stale,) = run_backtest(records[:4], judging=judging).arbitrages
    assert stale.suspect == "a leg was quoted before the last score or status change"
    (fresh,) = run_backtest(records, judging=judging).arbitrages
    assert fresh.legs[1] == ("away", 1.95, "BookB") and fresh.suspect == ""


@pytest.mark.parametrize("ending", ["settled", "cancelled"])
def test_a_finished_match_leaves_the_lists_at_its_status_change(ending: str) -> None:
    records = [
        START,
        updated(101.0, 1, 1, "BookB", [ml(1.50, 2.10)]),
        status(105.0, 1, ending),
        updated(106.0, 2, 1, "BookC", [ml(1.50, 2.40)]),  # prices after the end: no arbitrage
        updated(110.0, 3, 1, "Pinnacle", [ml(1.91, 1.95)]),
    ]
    report = run_backtest(records)
    (arb,) = report.arbitrages
    assert (arb.last_seen, arb.open_at_end) == (105.0, False)
    assert not [bet for bet in report.value_bets if bet.time > 105.0]
