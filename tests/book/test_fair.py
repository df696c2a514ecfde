from __future__ import annotations

import math

import pytest
from hypothesis import given, settings

from oddstui.book.fair import (
    METHODS,
    fair_prices,
    fair_probabilities,
    worst_case_probability,
)
from oddstui.book.probability import implied
from tests.book.strategies import price_lists


@pytest.mark.parametrize("method", METHODS)
def test_a_balanced_book_is_split_evenly(method: str) -> None:
    assert fair_probabilities([1.9, 1.9], method) == pytest.approx([0.5, 0.5])  # type: ignore[arg-type]


def test_multiplicative_divides_by_the_booksum() -> None:
    q = implied([1.8, 3.6, 4.5])
    p = fair_probabilities([1.8, 3.6, 4.5], "multiplicative")
    assert p == pytest.approx([qi / sum(q) for qi in q])


def test_additive_removes_the_same_amount_from_every_side() -> None:
    prices = [1.8, 3.6, 4.5]
    q = implied(prices)
    p = fair_probabilities(prices, "additive")
    shares = [qi - pi for qi, pi in zip(q, p, strict=True)]
    assert shares == pytest.approx([(sum(q) - 1) / 3] * 3)


def test_additive_falls_back_to_multiplicative_for_a_long_shot() -> None:
    prices = [1.5, 2.5, 200.0]  # the long shot's q (0.005) is below the share (0.024)
    assert fair_probabilities(prices, "additive") == fair_probabilities(prices, "multiplicative")


def test_power_raises_every_implied_probability_to_one_exponent() -> None:
    prices = [1.8, 3.6, 4.5]
    q = implied(prices)
    p = fair_probabilities(prices, "power")
    exponents = [math.log(pi) / math.log(qi) for pi, qi in zip(p, q, strict=True)]
    assert exponents == pytest.approx([exponents[0]] * 3, rel=1e-9)
    assert exponents[0] > 1


def test_shin_matches_the_published_reference() -> None:
    # The worked example of the `shin` package (mberk/shin) README.
    p = fair_probabilities([2.6, 2.4, 4.3], "shin")
    assert p == pytest.approx([0.37299406033208965, 0.4047794109200184, 0.2222265287474275])


def test_shin_two_way_closed_form_gives_a_proper_distribution() -> None:
    prices = [1.5, 2.74]
    q = implied(prices)
    s = sum(q)
    d = q[0] - q[1]
    z = (s - 1) * (d * d - s) / (s * (d * d - 1))
    raw = [(math.sqrt(z * z + 4 * (1 - z) * qi * qi / s) - z) / (2 * (1 - z)) for qi in q]
    assert sum(raw) == pytest.approx(1.0, abs=1e-12)
    assert fair_probabilities(prices, "shin") == pytest.approx(raw, abs=1e-12)


@pytest.mark.parametrize("method", METHODS)
@settings(deadline=None)
@given(prices=price_lists())
def test_every_method_sums_to_one_and_keeps_the_order(method: str, prices: list[float]) -> None:
    p = fair_probabilities(prices, method)  # type: ignore[arg-type]
    assert sum(p) == pytest.approx(1.0, abs=1e-9)
    assert all(0 < pi < 1 for pi in p)
    for i in range(len(prices)):
        for j in range(len(prices)):
            if prices[i] < prices[j]:
                assert p[i] >= p[j]


@settings(deadline=None)
@given(price_lists())
def test_fair_prices_are_the_inverse_probabilities(prices: list[float]) -> None:
    fair = fair_prices(prices, "power")
    assert [1 / f for f in fair] == pytest.approx(fair_probabilities(prices, "power"))


@settings(deadline=None)
@given(price_lists())
def test_worst_case_is_the_lowest_across_methods(prices: list[float]) -> None:
    # non-empty: price_lists() draws two prices or more
    for index in range(len(prices)):
        worst = worst_case_probability(prices, index)
        lows = [fair_probabilities(prices, m)[index] for m in METHODS]
        assert worst == min(lows)


@pytest.mark.parametrize(
    ("prices", "message"),
    [
        ([2.0, None], "missing"),
        ([2.0, 1.0], "above 1.0"),
        ([2.0, 0.0], "above 1.0"),
        ([2.0], "at least 2"),
    ],
)
def test_a_market_must_be_fully_quoted(prices: list, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        fair_probabilities(prices, "multiplicative")


def test_an_unknown_method_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown fair-price method"):
        fair_probabilities([2.0, 2.0], "logit")  # type: ignore[arg-type]


