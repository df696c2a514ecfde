"""Stake splits across the legs of a bet set (see MATHS.md).

All functions take decimal prices in leg order and return stakes in the same order. Input
errors raise ``ValueError`` with a message the stake ticket shows inline.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from oddstui.book._validate import check_index, check_positive, check_prices

# The ±1 step search covers 3**n combinations, so it stops at four legs (81 combinations).
MAX_SEARCH_LEGS = 4


@dataclass(frozen=True, slots=True)
class RoundedStakes:
    """Stakes rounded to a step, with what they guarantee."""

    stakes: tuple[float, ...]
    """One stake per leg, each a whole multiple of the step."""
    total: float
    """The sum of the stakes (may differ a little from the total asked for)."""
    guaranteed: float
    """The worst outcome: ``min(s_i · d_i) - total``."""
    best_case: float
    """The best outcome: ``max(s_i · d_i) - total``."""


def equal_return_stakes(prices: Sequence[float], total: float) -> list[float]:
    """``s_i = T · q_i / S``: every outcome returns ``T/S``."""
    d = check_prices(prices, minimum=1)
    t = check_positive(total, "total stake")
    s = sum(1.0 / di for di in d)
    return [t / di / s for di in d]


def capped_stakes(prices: Sequence[float], index: int, cap: float) -> list[float]:
    """Leg ``index`` staked at ``cap`` (a bookmaker's limit); the others match its return."""
    d = check_prices(prices, minimum=1)
    check_index(index, len(d), "capped leg")
    ret = check_positive(cap, "capped stake") * d[index]
    stakes = [ret / di for di in d]
    stakes[index] = float(cap)
    return stakes


def all_on_outcome(prices: Sequence[float], total: float, j: int) -> list[float]:
    """Break even on every outcome except ``j``, which takes all the profit."""
    d = check_prices(prices, minimum=1)
    t = check_positive(total, "total stake")
    check_index(j, len(d), "favoured leg")
    stakes = [t / di for di in d]
    stakes[j] = t - sum(s for i, s in enumerate(stakes) if i != j)
    if stakes[j] <= 0:
        raise ValueError(
            f"these prices cannot break even on the other legs: leg {j + 1} would need "
            f"a stake of {stakes[j]:.2f}"
        )
    return stakes


def guaranteed_result(prices: Sequence[float], stakes: Sequence[float]) -> float:
    """Profit in the worst outcome: ``min(s_i · d_i) - sum(s)``."""
    return min(s * d for s, d in zip(stakes, prices, strict=True)) - sum(stakes)


def best_case_result(prices: Sequence[float], stakes: Sequence[float]) -> float:
    """Profit in the best outcome: ``max(s_i · d_i) - sum(s)``."""
    return max(s * d for s, d in zip(stakes, prices, strict=True)) - sum(stakes)


def rounded_stakes(prices: Sequence[float], total: float, step: float) -> RoundedStakes:
    """Equal-return stakes rounded to ``step``, nudged to keep the guaranteed result highest.

    Each stake is rounded to the nearest step (at least one step). For up to four legs, every
    combination of -1, 0 and +1 step per leg is tried and the one with the highest guaranteed
    result wins; ties go to the total nearest ``total``, then to the higher best case.
    """
    d = check_prices(prices, minimum=1)
    t = check_positive(total, "total stake")
    r = check_positive(step, "rounding step")
    if r > t:
        raise ValueError(f"rounding step {step:g} is larger than the total stake {total:g}")
    places = _decimal_places(r)
    ideal = equal_return_stakes(d, t)
    base = [max(1, round(s / r)) for s in ideal]

    def stakes_of(units: Sequence[int]) -> tuple[float, ...]:
        return tuple(round(u * r, places) for u in units)

    def rank(units: Sequence[int]) -> tuple[float, float, float]:
        stakes = stakes_of(units)
        return (
            round(guaranteed_result(d, stakes), 9),
            -abs(sum(stakes) - t),
            best_case_result(d, stakes),
        )

    best = base
    if len(d) <= MAX_SEARCH_LEGS:
        candidates = (
            [b + delta for b, delta in zip(base, deltas, strict=True)]
            for deltas in itertools.product((0, -1, 1), repeat=len(d))
        )
        best = max((c for c in candidates if min(c) >= 1), key=rank)
    stakes = stakes_of(best)
    return RoundedStakes(
        stakes=stakes,
        total=round(sum(stakes), places),
        guaranteed=guaranteed_result(d, stakes),
        best_case=best_case_result(d, stakes),
    )


def _decimal_places(step: float) -> int:
    exponent = Decimal(repr(step)).normalize().as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0
