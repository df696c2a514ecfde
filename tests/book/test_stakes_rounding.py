"""Rounded stakes pinned where the properties in test_stakes.py leave room: the documented
tie-break, prices that are not an arbitrage, exact steps, and the branch for more than 4 legs."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from oddstui.book.stakes import rounded_stakes
from tests.book.strategies import arbitrage_prices, market_prices, price_lists


def worst_case(prices: list[float], stakes: tuple[float, ...] | list[float]) -> float:
    return min(s * d for s, d in zip(stakes, prices, strict=True)) - sum(stakes)


def test_a_tie_on_the_guarantee_goes_to_the_total_nearest_the_one_asked() -> None:
    # The docstring's tie-break: 45.4 and 45.3 on the first leg guarantee the same (the
    # worst case is another leg), so the total nearer 101 wins.
    prices = [2.02, 3.26, 7.23, 6.28]
    result = rounded_stakes(prices, 101, 0.1)
    assert result.stakes == (45.4, 28.1, 12.7, 14.6)
    assert result.total == 100.8
    assert worst_case(prices, [45.3, 28.1, 12.7, 14.6]) == pytest.approx(result.guaranteed)


def best_within_one_step(prices: list[float], total: float, step: float) -> float:
    """The highest guarantee over every ±1 step around the floored equal-return stakes,
    computed here from MATHS.md's s_i = T · q_i / S, among the totals that leave less than a
    step per leg unstaked."""
    s = sum(1 / d for d in prices)
    base = [max(1, math.floor(total / d / s / step + 1e-9)) for d in prices]
    return max(
        worst_case(prices, [u * step for u in units])
        for deltas in itertools.product((-1, 0, 1), repeat=len(prices))
        for units in [[b + delta for b, delta in zip(base, deltas, strict=True)]]
        if min(units) >= 1 and total - step * len(prices) < sum(units) * step <= total + 1e-9
    )


@pytest.mark.parametrize("total", [10, 50, 100, 101, 1000])
def test_prices_that_are_no_arbitrage_round_down_to_the_best_guarantee(total: float) -> None:
    # Not an arbitrage (S > 1): every split loses, and the long shot's stake (a few cents)
    # still gets one step.
    prices = [1.46, 2.19, 333.0]
    assert sum(1 / d for d in prices) > 1
    result = rounded_stakes(prices, total, 0.1)
    assert result.total <= total
    assert min(result.stakes) >= 0.1
    assert all(round(s * 10) == pytest.approx(s * 10) for s in result.stakes)
    assert result.guaranteed == pytest.approx(best_within_one_step(prices, total, 0.1))


def test_prices_that_are_no_arbitrage_at_a_total_of_100() -> None:
    assert rounded_stakes([1.46, 2.19, 333.0], 100, 0.1).stakes == (59.7, 39.8, 0.3)


@pytest.mark.parametrize("legs", [2, 5, 6])
def test_a_stake_of_exactly_whole_steps_is_not_lost_to_float_error(legs: int) -> None:
    # 0.3 / 0.1 is 2.9999999999999996 and 1.1 / 0.1 is 11.000000000000002 in floats.
    prices = [float(legs)] * legs
    down = rounded_stakes(prices, 0.3 * legs, 0.1)
    assert down.stakes == (0.3,) * legs
    up = rounded_stakes(prices, 1.1 * legs, 0.1, round_up=True)
    assert up.stakes == (1.1,) * legs


steps = st.sampled_from([0.01, 0.1, 0.5, 1.0, 5.0])
totals = st.integers(min_value=20, max_value=5000).map(float)
many_legs = st.one_of(arbitrage_prices(min_size=5, max_size=6), price_lists(min_size=5, max_size=6))


def floored_units(prices: list[float], total: float, step: float) -> list[int]:
    """Each equal-return stake (MATHS.md) rounded down to a step, at least one step."""
    s = sum(1 / d for d in prices)
    return [max(1, math.floor(total / d / s / step + 1e-9)) for d in prices]


@settings(deadline=None)
@given(many_legs, totals, steps)
def test_five_and_six_legs_keep_to_the_total_in_whole_steps(
    prices: list[float], total: float, step: float
) -> None:
    assert len(prices) in (5, 6)
    if step * len(prices) > total:
        with pytest.raises(ValueError, match="cannot stake"):
            rounded_stakes(prices, total, step)
        return
    floored = floored_units(prices, total, step)
    assume(sum(floored) * step <= total + 1e-9)  # overshooting sets: the test below
    result = rounded_stakes(prices, total, step)
    units = [round(stake / step) for stake in result.stakes]
    assert [u * step for u in units] == pytest.approx(list(result.stakes))
    assert units == floored
    assert result.total <= total + 1e-9
    assert result.guaranteed == pytest.approx(worst_case(prices, result.stakes))


@st.composite
def long_shot_sets(draw: st.DrawFn) -> tuple[list[float], float, float]:
    """5 or 6 legs where long shots raised to one step push the floored stakes over the total."""
    n = draw(st.integers(5, 6))
    long_shots = draw(st.lists(st.integers(200, 1000).map(float), min_size=2, max_size=n - 1))
    favourites = draw(
        st.lists(market_prices, min_size=n - len(long_shots), max_size=n - len(long_shots))
    )
    step = draw(st.sampled_from([0.1, 1.0, 5.0]))
    total = draw(st.integers(n, 3 * n)) * step
    prices = draw(st.permutations(favourites + long_shots))
    return prices, total, step


@settings(deadline=None)
@given(long_shot_sets())
def test_five_and_six_legs_take_the_overshoot_off_the_largest_stakes(
    case: tuple[list[float], float, float],
) -> None:
    prices, total, step = case
    floored = floored_units(prices, total, step)
    assume(sum(floored) * step > total + 1e-9)
    result = rounded_stakes(prices, total, step)
    units = [round(stake / step) for stake in result.stakes]
    assert [u * step for u in units] == pytest.approx(list(result.stakes))
    assert min(units) >= 1
    # Down to the total exactly (in whole steps), never under it by a step.
    assert sum(units) == math.floor(total / step + 1e-9)
    # Only the largest stakes lose steps: a leg that lost some ends at most one step under
    # the largest stake left.
    cut = [f - u for f, u in zip(floored, units, strict=True)]
    assert min(cut) >= 0 and sum(cut) > 0
    assert all(u >= max(units) - 1 for u, c in zip(units, cut, strict=True) if c > 0)


@settings(deadline=None)
@given(many_legs, totals, steps)
def test_five_and_six_legs_round_up_to_at_least_the_total(
    prices: list[float], total: float, step: float
) -> None:
    s = sum(1 / d for d in prices)
    ceiled = [max(1, math.ceil(total / d / s / step - 1e-9)) for d in prices]
    result = rounded_stakes(prices, total, step, round_up=True)
    units = [round(stake / step) for stake in result.stakes]
    assert units == ceiled
    assert result.total >= total - 1e-9
    assert result.total < total + len(prices) * step + 1e-9
