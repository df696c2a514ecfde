from __future__ import annotations

import pytest
from hypothesis import given, settings

from oddstui.book.ticks import nearest_tick, tick_index, tick_size, ticks_between
from tests.book.strategies import prices


@pytest.mark.parametrize(
    ("price", "step"),
    [
        (1.01, 0.01),
        (1.99, 0.01),
        (2.0, 0.02),
        (2.98, 0.02),
        (3.0, 0.05),
        (5.5, 0.1),
        (6.0, 0.2),
        (15.0, 0.5),
        (25.0, 1.0),
        (40.0, 2.0),
        (60.0, 5.0),
        (500.0, 10.0),
    ],
)
def test_tick_size(price: float, step: float) -> None:
    assert tick_size(price) == step


@pytest.mark.parametrize(
    ("price", "index"),
    [
        (1.01, 0),
        (2.0, 99),
        (3.0, 149),
        (4.0, 169),
        (6.0, 189),
        (10.0, 209),
        (20.0, 229),
        (30.0, 239),
        (50.0, 249),
        (100.0, 259),
        (1000.0, 349),
    ],
)
def test_band_boundaries_are_counted_from_1_01(price: float, index: int) -> None:
    assert tick_index(price) == pytest.approx(index, abs=1e-9)


def test_ticks_between_examples() -> None:
    assert ticks_between(2.0, 2.1) == pytest.approx(5)
    assert ticks_between(1.95, 2.04) == pytest.approx(7)
    assert ticks_between(3.0, 2.9) == pytest.approx(-5)


@settings(deadline=None)
@given(prices, prices)
def test_ticks_between_is_antisymmetric(a: float, b: float) -> None:
    assert ticks_between(a, b) == pytest.approx(-ticks_between(b, a), abs=1e-9)
    assert (ticks_between(a, b) > 0) == (b > a) or abs(ticks_between(a, b)) < 1e-9


@settings(deadline=None)
@given(prices)
def test_one_tick_up_is_one_tick(price: float) -> None:
    on_ladder = nearest_tick(price)
    up = on_ladder + tick_size(on_ladder)
    if up <= 1000:
        assert ticks_between(on_ladder, up) == pytest.approx(1, abs=1e-6)


@settings(deadline=None)
@given(prices)
def test_nearest_tick_is_on_the_ladder(price: float) -> None:
    tick = nearest_tick(price)
    assert tick_index(tick) == pytest.approx(round(tick_index(tick)), abs=1e-6)
    assert abs(ticks_between(price, tick)) <= 0.5 + 1e-6


def test_prices_at_or_below_one_have_no_tick() -> None:
    with pytest.raises(ValueError, match="above 1.0"):
        tick_size(1.0)
