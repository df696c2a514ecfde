"""Stakes under bookmakers' limits, rounding that never half-stakes, and the safer rounding the
ticket offers when a rounding loses (issue 21): properties over the pure maths."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oddstui.book.stakes import (
    NICE_STEPS,
    equal_return_stakes,
    guaranteed_result,
    is_loss,
    rounded_stakes,
    safer_rounding,
    within_limits,
)
from oddstui.tui.boards.ticket.stakes import plan_stakes
from tests.book.strategies import arbitrage_prices

totals = st.integers(min_value=20, max_value=5000).map(float)
steps = st.sampled_from([0.1, 1.0, 5.0, 10.0, 20.0, 50.0])
limit_values = st.one_of(st.none(), st.integers(min_value=1, max_value=3000).map(float))


@st.composite
def legs_with_limits(draw: st.DrawFn) -> tuple[list[float], list[float | None]]:
    prices = draw(arbitrage_prices())
    limits = draw(st.lists(limit_values, min_size=len(prices), max_size=len(prices)))
    return prices, limits


def test_the_issue_case_46_54_at_a_step_of_20_is_not_half_staked() -> None:
    prices = [2.2, 1.9]  # 46.34 / 53.66 of 100
    assert [round(s) for s in equal_return_stakes(prices, 100)] == [46, 54]
    result = rounded_stakes(prices, 100, 20)
    assert result.stakes == (40.0, 40.0)  # 20/20 (40 of 100) guaranteed less loss, in cash


def test_a_rounding_that_loses_is_offered_the_nearest_that_does_not() -> None:
    prices = [2.2, 1.9]
    plan = plan_stakes(prices, "100", "20")
    assert plan.loses and plan.rounding_loses
    assert plan.safer is not None
    assert plan.safer.step == 5.0 and not plan.safer.round_up
    assert plan.safer.result.stakes == (45.0, 50.0)
    assert not is_loss(plan.safer.result.guaranteed)


def test_a_limit_caps_its_leg_and_scales_the_others() -> None:
    prices = [2.2, 1.9]
    plan = plan_stakes(prices, "100", "", limits=[30.0, None])
    assert plan.limited_leg == 0
    assert plan.stakes[0] == 30.0
    assert plan.returns[1] == pytest.approx(plan.returns[0])  # equal returns kept


@settings(deadline=None)
@given(legs_with_limits(), totals)
def test_within_limits_never_stakes_over_a_limit_and_keeps_equal_returns(
    case: tuple[list[float], list[float | None]], total: float
) -> None:
    prices, limits = case
    wanted = equal_return_stakes(prices, total)
    stakes, binding = within_limits(prices, wanted, limits)
    # non-empty: one stake per price, and a case has two prices or more
    for stake, limit in zip(stakes, limits, strict=True):
        assert limit is None or stake <= limit + 1e-9
    returns = [s * d for s, d in zip(stakes, prices, strict=True)]
    assert max(returns) == pytest.approx(min(returns))
    if binding is None:
        assert stakes == wanted
    else:
        assert stakes[binding] == limits[binding]
        assert wanted[binding] > stakes[binding]


@settings(deadline=None)
@given(legs_with_limits(), totals, steps, st.booleans(), st.sampled_from([None, 0, 1]))
def test_the_ticket_never_stakes_over_a_limit_nor_hides_a_loss(
    case: tuple[list[float], list[float | None]],
    total: float,
    step: float,
    round_up: bool,
    capped: int | None,
) -> None:
    prices, limits = case
    try:
        plan = plan_stakes(prices, f"{total:g}", f"{step:g}", capped, round_up, limits)
    except ValueError as error:
        assert str(error)  # refused with a reason the ticket shows
        return
    # non-empty: one stake per price, and a case has two prices or more
    for stake, limit in zip(plan.stakes, limits, strict=True):
        assert limit is None or stake <= limit + 1e-9
    if capped is not None:
        assert plan.stakes[capped] <= total + 1e-9
    assert plan.guaranteed == pytest.approx(guaranteed_result(prices, plan.stakes))
    assert plan.loses == (plan.guaranteed < -1e-9)
    if plan.safer is not None:
        assert plan.rounding_loses
        assert not is_loss(plan.safer.result.guaranteed)
        assert plan.safer.step <= step
        # non-empty: one stake per price, and a case has two prices or more
        for stake, limit in zip(plan.safer.result.stakes, limits, strict=True):
            assert limit is None or stake <= limit + 1e-9


@settings(deadline=None)
@given(arbitrage_prices(), totals, steps)
def test_rounding_down_keeps_more_than_a_step_per_leg_of_the_total(
    prices: list[float], total: float, step: float
) -> None:
    try:
        result = rounded_stakes(prices, total, step)
    except ValueError as error:  # too small a total for a step per leg: refused, saying so
        assert "cannot" in str(error) or "larger than the total" in str(error)
        return
    assert total - step * len(prices) < result.total <= total + 1e-9


@settings(deadline=None)
@given(arbitrage_prices(), totals, steps, st.booleans())
def test_no_safer_rounding_is_missed(
    prices: list[float], total: float, step: float, round_up: bool
) -> None:
    choice = safer_rounding(prices, total, step, round_up)
    tries = [(step, not round_up)] + [
        (nice, up) for nice in NICE_STEPS if nice < step * (1 - 1e-9) for up in (False, True)
    ]
    for nice, up in tries:
        if choice is not None and (nice, up) == (choice.step, choice.round_up):
            assert not is_loss(choice.result.guaranteed)
            return
        try:  # every rounding tried before the one chosen loses (or cannot be made)
            assert is_loss(rounded_stakes(prices, total, nice, up).guaranteed)
        except ValueError:
            pass
    assert choice is None
