"""Stake splits across the legs of a bet set (see MATHS.md).

All functions take decimal prices in leg order and return stakes in the same order. Input
errors raise ``ValueError`` with a message the stake ticket shows inline.
"""

from __future__ import annotations

import itertools
import math
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
    """The sum of the stakes: at most the total asked for (at least it, rounding up)."""
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


def rounded_stakes(
    prices: Sequence[float], total: float, step: float, round_up: bool = False
) -> RoundedStakes:
    """Equal-return stakes rounded to ``step``, nudged to keep the guaranteed result highest.

    The rounded stakes never add up to more than ``total`` (``round_up``: never to less). Each
    stake is first rounded down (up) to a step, at least one step. For up to four legs, every
    combination of -1, 0 and +1 step per leg that keeps to the total is tried and the one with
    the highest guaranteed result wins; ties go to the total nearest ``total``, then to the
    higher best case. Rounding up, the smallest total wins first, so the stake grows no more
    than it must.
    """
    d = check_prices(prices, minimum=1)
    t = check_positive(total, "total stake")
    r = check_positive(step, "rounding step")
    if r > t:
        raise ValueError(f"rounding step {step:g} is larger than the total stake {total:g}")
    if not round_up and r * len(d) > t + 1e-9:
        raise ValueError(
            f"a total of {total:g} cannot stake {len(d)} legs in steps of {step:g}: "
            f"raise it to {r * len(d):g} or choose round up"
        )
    places = _decimal_places(r)
    ideal = equal_return_stakes(d, t)
    slack = r * 1e-9
    nudge = -1e-9 if round_up else 1e-9  # 49.99999999 steps are 50 steps
    to_step = math.ceil if round_up else math.floor
    base = [max(1, to_step(s / r + nudge)) for s in ideal]

    def stakes_of(units: Sequence[int]) -> tuple[float, ...]:
        return tuple(round(u * r, places) for u in units)

    def keeps_to_total(units: Sequence[int]) -> bool:
        stake = sum(units) * r
        return stake >= t - slack if round_up else stake <= t + slack

    def rank(units: Sequence[int]) -> tuple[float, float, float]:
        stakes = stakes_of(units)
        guaranteed = round(guaranteed_result(d, stakes), 9)
        if round_up:  # as little over the total as can be, then the best guarantee
            return (-sum(stakes), guaranteed, best_case_result(d, stakes))
        return (guaranteed, -abs(sum(stakes) - t), best_case_result(d, stakes))

    best = base
    if len(d) <= MAX_SEARCH_LEGS:
        candidates = (
            [b + delta for b, delta in zip(base, deltas, strict=True)]
            for deltas in itertools.product((0, -1, 1), repeat=len(d))
        )
        valid = [c for c in candidates if min(c) >= 1 and keeps_to_total(c)]
        if not valid:
            raise ValueError(
                f"a total of {total:g} cannot be split in steps of {step:g} at these prices: "
                "raise it or choose round up"
            )
        best = max(valid, key=rank)
    else:
        while not keeps_to_total(best):  # legs raised to one step: take it off the largest
            largest = best.index(max(best))
            best = [u - 1 if i == largest else u for i, u in enumerate(best)]
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
