from __future__ import annotations

import pytest
from hypothesis import given, settings

from oddstui.book.probability import booksum, implied, margin, overround, payout
from tests.book.strategies import price_lists


def test_two_way_at_1_91() -> None:
    prices = [1.91, 1.91]
    assert implied(prices) == pytest.approx([1 / 1.91, 1 / 1.91])
    assert booksum(prices) == pytest.approx(2 / 1.91)
    assert overround(prices) == pytest.approx(2 / 1.91 - 1)
    assert margin(prices) == pytest.approx(1 - 1.91 / 2)
    assert payout(prices) == pytest.approx(0.955)


@settings(deadline=None)
@given(price_lists())
def test_margin_and_payout_add_to_one(prices: list[float]) -> None:
    assert margin(prices) + payout(prices) == pytest.approx(1.0)
    assert (overround(prices) > 0) == (margin(prices) > 0)


@pytest.mark.parametrize("bad", [[2.0, None], [2.0, 1.0], [2.0, -3.0], [], [2.0, "x"]])
def test_bad_prices_raise(bad: list) -> None:
    with pytest.raises(ValueError):
        booksum(bad)
