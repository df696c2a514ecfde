"""Value lines: the service's fair price, or one made here from a sharp book with book.fair."""

from __future__ import annotations

import pytest

from oddstui.api.models import ValueBet
from oddstui.book.fair import fair_probabilities, worst_case_probability
from oddstui.book.value import ev_percent, kelly_stake
from oddstui.tui.boards.value.value_rows import fair_from_sharp, value_line


def item(side: str = "home") -> ValueBet:
    return ValueBet(
        id="v1", event_id=1, event=None, bookmaker="Bet365", bet_side=side,
        expected_value=12.5, expected_value_updated_at=None,
        bookmaker_prices={"home": 2.40, "away": 1.70}, bookmaker_hdp=None, direct_links={},
        href=None, market_name="ML", market_hdp=None,
        market_prices={"home": 2.10, "away": 1.90}, market_max=None,
    )  # fmt: skip


def test_service_method_uses_the_service_fair_price_and_ev() -> None:
    line = value_line(item(), "service", bankroll=1000, fraction=0.5)
    assert line.fair == 2.10 and line.ev == 12.5 and line.method == "service"
    assert line.kelly == pytest.approx(kelly_stake(1 / 2.10, 2.40, 1000, 0.5))


@pytest.mark.parametrize("method", ["multiplicative", "additive", "power", "shin"])
def test_local_methods_devig_the_sharp_book(method: str) -> None:
    quotes = {"Pinnacle": {"home": 2.05, "away": 1.85}, "Bwin": {"home": 2.5, "away": 1.5}}
    line = value_line(item(), method, bankroll=1000, fraction=0.25, sharp_quotes=quotes)
    p = fair_probabilities([2.05, 1.85], method)[0]  # type: ignore[arg-type]
    assert line.fair == pytest.approx(1 / p)
    assert line.ev == pytest.approx(ev_percent(p, 2.40))
    assert "Pinnacle" in line.method


def test_worst_case_is_the_lowest_probability_across_methods() -> None:
    quotes = {"SingBet": {"home": 2.05, "away": 1.85}}
    found = fair_from_sharp(quotes, ["home", "away"], "home", "worst")
    assert found is not None
    assert found[0] == pytest.approx(1 / worst_case_probability([2.05, 1.85], 0))
    assert found[1] == "SingBet"


def test_no_fair_line_from_half_a_market() -> None:
    quotes = {"Pinnacle": {"home": 2.05}}  # the away side is missing
    line = value_line(item(), "shin", bankroll=1000, fraction=0.25, sharp_quotes=quotes)
    assert line.fair is None and line.ev is None and line.kelly is None
    assert line.method == "no sharp quote"
