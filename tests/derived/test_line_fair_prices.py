"""The one fair price of a line (`derived.value.line_fair_prices`): the first sharp book quoting
every side the market needs, its margin removed; never a fair price made from half a market.
The bet log's fair closing price and the backtest's fair prices are this rule."""

from __future__ import annotations

import pytest

from oddstui.api.models import OddsRecord
from oddstui.api.models.odds import parse_odds_record
from oddstui.betlog.bets import BetLeg
from oddstui.book.settlement import closing_line_value
from oddstui.derived.value import line_fair_prices
from oddstui.tui.bets.settling import with_closing


def test_a_two_way_line_at_one_margin_is_fair_at_evens() -> None:
    # 1.9 / 1.9: 1/1.9 + 1/1.9 = 1.0526; fair 2.0 each.
    found = line_fair_prices("Totals", False, {"Pinnacle": {"over": 1.9, "under": 1.9}})
    assert found is not None
    book, fair = found
    assert book == "Pinnacle"
    assert fair == pytest.approx({"over": 2.0, "under": 2.0})
    assert closing_line_value(2.1, fair["over"]) == pytest.approx(0.05)


def test_half_a_market_has_no_fair_price() -> None:
    assert line_fair_prices("Totals", False, {"Pinnacle": {"over": 1.9}}) is None
    # Football's match result needs the draw: home and away alone are not the whole line.
    two_way = {"Pinnacle": {"home": 1.9, "away": 4.0}}
    assert line_fair_prices("ML", True, two_way) is None
    assert line_fair_prices("ML", False, two_way) is not None


def test_a_price_of_one_is_no_price() -> None:
    """1.0 pays nothing back: a line left with one real side has no fair price."""
    assert line_fair_prices("ML", False, {"Pinnacle": {"home": 1.0, "away": 2.0}}) is None


def test_the_next_sharp_book_prices_a_line_the_first_quotes_only_in_part() -> None:
    quotes = {
        "Pinnacle": {"home": 2.0, "away": 2.0},
        "SingBet": {"home": 2.4, "draw": 3.2, "away": 3.0},
    }
    found = line_fair_prices("ML", True, quotes)
    assert found is not None and found[0] == "SingBet"
    assert set(found[1]) == {"home", "draw", "away"}


def _closing(markets: dict[str, dict[str, float]]) -> OddsRecord:
    bookmakers = {
        book: [{"name": "ML", "odds": [{k: str(v) for k, v in prices.items()}]}]
        for book, prices in markets.items()
    }
    return parse_odds_record(
        {"id": 1, "home": "A", "away": "B", "date": "2026-11-27T20:00:00Z", "status": "settled",
         "sport": {"name": "Football", "slug": "football"},
         "league": {"name": "L", "slug": "l"}, "bookmakers": bookmakers}
    )  # fmt: skip


def test_the_bet_log_closes_a_leg_at_the_whole_lines_fair_price() -> None:
    leg = BetLeg("ML", None, "home", "Bet365", 2.5, 10.0)
    record = _closing(
        {"Pinnacle": {"home": 2.0, "away": 2.0}, "SingBet": {"home": 2.4, "draw": 3.2, "away": 3.0}}
    )
    closed = with_closing(leg, record, has_draw=True)
    expected = line_fair_prices("ML", True, {"SingBet": {"home": 2.4, "draw": 3.2, "away": 3.0}})
    assert expected is not None
    assert closed.sharp_book == "SingBet" and closed.close_price == 2.4
    assert closed.close_fair == pytest.approx(expected[1]["home"])
    # With no sharp book quoting the whole line, the closing price stands without a fair price.
    alone = with_closing(leg, _closing({"Pinnacle": {"home": 2.0, "away": 2.0}}), has_draw=True)
    assert (alone.close_price, alone.close_fair, alone.sharp_book) == (2.0, None, "Pinnacle")
