from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oddstui.book.stakes import (
    all_on_outcome,
    best_case_result,
    capped_stakes,
    equal_return_stakes,
    guaranteed_result,
    rounded_stakes,
)
from tests.book.strategies import arbitrage_prices, price_lists

totals = st.integers(min_value=20, max_value=5000).map(float)
steps = st.sampled_from([0.01, 0.1, 0.5, 1.0, 5.0])


@settings(deadline=None)
@given(price_lists(), totals)
def test_equal_return_stakes_give_equal_returns(prices: list[float], total: float) -> None:
    stakes = equal_return_stakes(prices, total)
    assert sum(stakes) == pytest.approx(total)
    expected = total / sum(1 / d for d in prices)
    assert [s * d for s, d in zip(stakes, prices, strict=True)] == pytest.approx(
        [expected] * len(prices)
    )


@settings(deadline=None)
@given(price_lists(), st.data())
def test_capped_stakes_hold_the_cap_and_equal_returns(prices: list[float], data) -> None:
    index = data.draw(st.integers(0, len(prices) - 1))
    cap = data.draw(st.floats(1, 1000))
    stakes = capped_stakes(prices, index, cap)
    assert stakes[index] == cap
    returns = [s * d for s, d in zip(stakes, prices, strict=True)]
    assert returns == pytest.approx([cap * prices[index]] * len(prices))
    assert sum(stakes) == pytest.approx(cap * prices[index] * sum(1 / d for d in prices))


@settings(deadline=None)
@given(arbitrage_prices(), totals, st.data())
def test_all_on_outcome_breaks_even_elsewhere(prices: list[float], total: float, data) -> None:
    j = data.draw(st.integers(0, len(prices) - 1))
    stakes = all_on_outcome(prices, total, j)
    assert sum(stakes) == pytest.approx(total)
    for i, (s, d) in enumerate(zip(stakes, prices, strict=True)):
        if i == j:
            assert s * d >= total - 1e-9
        else:
            assert s * d == pytest.approx(total)


def test_all_on_outcome_rejects_a_book_that_cannot_break_even() -> None:
    with pytest.raises(ValueError, match="cannot break even"):
        all_on_outcome([1.2, 1.3, 3.0], 100, 2)


def naive(prices: list[float], total: float, step: float) -> list[float]:
    """Each stake rounded down to the step: never more than the total."""
    return [max(1, math.floor(s / step + 1e-9)) * step for s in equal_return_stakes(prices, total)]


def too_small(prices: list[float], total: float, step: float) -> bool:
    """Rounding down cannot give every leg one step (or one step is the whole total)."""
    return step * len(prices) > total or sum(naive(prices, total, step)) > total + 1e-9


@settings(deadline=None)
@given(arbitrage_prices(), totals, steps)
def test_rounded_stakes_are_multiples_of_the_step(
    prices: list[float], total: float, step: float
) -> None:
    if too_small(prices, total, step):
        return
    result = rounded_stakes(prices, total, step)
    assert result.total <= total + 1e-9  # never more than the total typed
    up = rounded_stakes(prices, total, step, round_up=True)
    assert up.total >= total - 1e-9  # rounding up: never less
    for s in result.stakes:
        assert s / step == pytest.approx(round(s / step), abs=1e-6)
        assert s >= step - 1e-9
    assert result.total == pytest.approx(sum(result.stakes))
    assert result.guaranteed == pytest.approx(guaranteed_result(prices, result.stakes))
    assert result.best_case == pytest.approx(best_case_result(prices, result.stakes))
    assert result.best_case >= result.guaranteed


@settings(deadline=None)
@given(arbitrage_prices(), totals, steps)
def test_rounded_stakes_never_guarantee_less_than_naive_rounding(
    prices: list[float], total: float, step: float
) -> None:
    if too_small(prices, total, step):
        return
    result = rounded_stakes(prices, total, step)
    assert result.guaranteed >= guaranteed_result(prices, naive(prices, total, step)) - 1e-9


@settings(deadline=None)
@given(arbitrage_prices(max_size=4), totals, steps)
def test_rounded_stakes_are_the_best_within_one_step(
    prices: list[float], total: float, step: float
) -> None:
    if too_small(prices, total, step):
        return
    base = [round(s / step) for s in naive(prices, total, step)]
    best = max(
        guaranteed_result(prices, units)
        for deltas in itertools.product((-1, 0, 1), repeat=len(prices))
        for units in [[(b + delta) * step for b, delta in zip(base, deltas, strict=True)]]
        # Rounding down never leaves a step per leg unstaked (46/54 at 20 is not 20/20): the
        # total stays strictly above it, also where float sums land a hair over the bound.
        if min(units) >= step - 1e-9
        and total - step * len(prices) + step * 1e-6 < sum(units) <= total + 1e-9
    )
    assert rounded_stakes(prices, total, step).guaranteed == pytest.approx(best, abs=1e-6)


def test_rounded_stakes_example() -> None:
    # 49.40/50.60 of 100: 49/51 guarantees 2.90, 49/50 (99 staked) 3.50; rounding up, the
    # least total not under 100 first: 49/51 (50/50 guarantees only 2.50).
    result = rounded_stakes([2.1, 2.05], 100, 1)
    assert result.stakes == (49.0, 50.0) and result.total == 99.0
    assert result.guaranteed == pytest.approx(3.5)
    up = rounded_stakes([2.1, 2.05], 100, 1, round_up=True)
    assert up.stakes == (49.0, 51.0) and up.total == 100.0
    assert up.guaranteed == pytest.approx(2.9)
    assert up.best_case == pytest.approx(4.55)


@pytest.mark.parametrize(("total", "step"), [(100, 1), (250, 5), (101, 1), (7, 2)])
def test_an_even_book_never_stakes_more_than_its_total(total: float, step: float) -> None:
    # The cases: 100 at 1 gave 51 + 51, 250 at 5 gave 130 + 130.
    result = rounded_stakes([1.95, 2.05], total, step)
    assert result.total <= total
    assert all(stake % step == 0 for stake in result.stakes)


def test_rounded_stakes_have_clean_decimals() -> None:
    result = rounded_stakes([3.5, 3.6, 2.9], 100, 0.1)
    # non-empty: three prices give three stakes
    assert all(repr(s) == f"{s:.1f}" for s in result.stakes)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: equal_return_stakes([2.0, 2.0], 0), "total stake must be a positive number"),
        (lambda: equal_return_stakes([2.0, 2.0], -5), "total stake"),
        (lambda: rounded_stakes([2.0, 2.0], 10, 20), "rounding step 20 is larger than"),
        (lambda: rounded_stakes([2.0, 2.0], 10, 0), "rounding step"),
        (lambda: capped_stakes([2.0, 2.0], 2, 10), "capped leg 2 is out of range"),
        (lambda: capped_stakes([2.0, 2.0], 0, -1), "capped stake"),
        (lambda: equal_return_stakes([2.0, 1.0], 10), "price 2 1 must be above 1.0"),
        (lambda: all_on_outcome([2.0, 2.0], 10, 5), "favoured leg"),
    ],
)
def test_bad_input_gives_a_clear_message(call, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()
