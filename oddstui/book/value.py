"""Expected value, Kelly stakes and closing line value (see MATHS.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from oddstui.book._validate import check_positive, check_price, check_probability

#: The smallest EV, in percent, listed as a value bet: smaller edges are within the fair price's
#: own noise.
MIN_VALUE_EV = 0.5


def expected_value(p: float, decimal: float) -> float:
    """EV per unit staked, ``p·d - 1`` (equals ``d/d_fair - 1``)."""
    return check_probability(p) * check_price(decimal) - 1.0


def best_expected_value(
    probabilities: Sequence[float], prices: Mapping[str, float], sides: Sequence[str]
) -> float | None:
    """The best EV per unit staked among a line's `sides`, ``max(p_i·d_i) - 1``, from each
    side's fair probability (in the order of `sides`) and a book's prices by side; None when
    the book does not price every side above 1. Lean, as it runs for every price change of the
    intelligence engine: the caller passes a fair line's probabilities."""
    best = 0.0  # every p·d is above 0
    index = 0  # (an index, not zip: this runs for every change, and zip doubles its cost)
    for side in sides:
        price = prices.get(side)
        if price is None or price <= 1.0:
            return None
        value = probabilities[index] * price
        if value > best:
            best = value
        index += 1
    return best - 1.0


def ev_percent(p: float, decimal: float) -> float:
    """EV in percent of the stake; the ``expectedValue`` of the value-bet feed."""
    return 100.0 * expected_value(p, decimal)


def kelly_fraction(p: float, decimal: float) -> float:
    """Full-Kelly share of the bankroll, ``(p·d - 1)/(d - 1)``, floored at 0."""
    d = check_price(decimal)
    return max(0.0, (check_probability(p) * d - 1.0) / (d - 1.0))


def kelly_stake(
    p: float, decimal: float, bankroll: float, fraction: float = 0.25, cap: float = 1.0
) -> float:
    """``bankroll · fraction · f*``, at most ``bankroll · cap``; a fraction of 0.25-0.5
    ("quarter/half Kelly") is usual, and a cap of a few percent."""
    check_positive(bankroll, "bankroll")
    if not 0.0 < fraction <= 1.0:
        raise ValueError(f"Kelly fraction must be above 0 and at most 1, got {fraction!r}")
    if not 0.0 < cap <= 1.0:
        raise ValueError(f"Kelly cap must be above 0 and at most 1, got {cap!r}")
    return min(bankroll * fraction * kelly_fraction(p, decimal), bankroll * cap)


def closing_line_value(taken: float, close_fair: float) -> float:
    """``d_taken / d_close_fair - 1``: positive when the bet beat the fair closing price."""
    return check_price(taken, "price taken") / check_price(close_fair, "fair closing price") - 1.0
