from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oddstui.book.value import (
    closing_line_value,
    ev_percent,
    expected_value,
    kelly_fraction,
    kelly_stake,
)
from tests.book.strategies import market_prices

probabilities = st.floats(min_value=0.001, max_value=0.999)


def test_examples() -> None:
    assert expected_value(0.5, 2.2) == pytest.approx(0.1)
    assert ev_percent(0.5, 2.2) == pytest.approx(10.0)
    assert kelly_fraction(0.5, 2.2) == pytest.approx(0.1 / 1.2)
    assert kelly_stake(0.5, 2.2, bankroll=1200, fraction=0.5) == pytest.approx(50.0)
    assert closing_line_value(2.2, 2.0) == pytest.approx(0.1)


@settings(deadline=None)
@given(probabilities, market_prices)
def test_ev_equals_price_over_fair_price(p: float, d: float) -> None:
    assert expected_value(p, d) == pytest.approx(d / (1 / p) - 1)


@settings(deadline=None)
@given(probabilities, market_prices)
def test_kelly_is_never_negative_and_zero_without_an_edge(p: float, d: float) -> None:
    f = kelly_fraction(p, d)
    assert 0.0 <= f <= 1.0
    if expected_value(p, d) <= 0:
        assert f == 0.0
    else:
        assert f > 0.0


@settings(deadline=None)
@given(probabilities, market_prices)
def test_kelly_maximises_expected_log_growth(p: float, d: float) -> None:
    f = kelly_fraction(p, d)

    def growth(x: float) -> float:
        return p * math.log1p(x * (d - 1)) + (1 - p) * math.log1p(-x)

    for other in (f - 0.01, f + 0.01):
        if 0 <= other < 1:
            assert growth(other) <= growth(f) + 1e-12


def test_a_kelly_stake_is_capped_at_a_share_of_the_bankroll() -> None:
    # +14 % EV at 1.80 would stake 17.5 % of the bankroll at full Kelly: the cap holds it.
    assert kelly_stake(0.6333, 1.8, bankroll=1000, fraction=1.0) == pytest.approx(175.0, rel=1e-3)
    assert kelly_stake(0.6333, 1.8, bankroll=1000, fraction=1.0, cap=0.02) == 20.0
    assert kelly_stake(0.52, 2.0, bankroll=1000, fraction=0.25, cap=0.02) == pytest.approx(10.0)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: kelly_stake(0.6, 2.0, bankroll=0), "bankroll"),
        (lambda: kelly_stake(0.6, 2.0, bankroll=100, fraction=0), "fraction"),
        (lambda: kelly_stake(0.6, 2.0, bankroll=100, fraction=1.5), "fraction"),
        (lambda: kelly_stake(0.6, 2.0, bankroll=100, cap=0), "cap"),
        (lambda: expected_value(1.2, 2.0), "probability"),
        (lambda: kelly_fraction(0.5, 1.0), "above 1.0"),
        (lambda: closing_line_value(2.0, 0.9), "fair closing price"),
    ],
)
def test_bad_input_is_rejected(call, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()
