"""Stake splits across the legs of a bet set (see MATHS.md).

All functions take decimal prices in leg order and return stakes in the same order. Input
errors raise ``ValueError`` with a message the stake ticket shows inline.
"""

from __future__ import annotations

import itertools
import math
import sys
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


def within_limits(
    prices: Sequence[float], stakes: Sequence[float], limits: Sequence[float | None]
) -> tuple[list[float], int | None]:
    """``stakes`` scaled down together so that no leg stakes over its limit (None: no limit).

    Scaling every leg by one factor keeps the stakes' proportions, so equal returns stay
    equal: the leg whose limit binds hardest is staked at its limit, the others match its
    return (MATHS.md, one leg capped). Returns the stakes and that leg's index, or None when
    no limit binds.
    """
    d = check_prices(prices, minimum=1)
    if len(limits) != len(d) or len(stakes) != len(d):
        raise ValueError(f"need one stake and one limit per leg, for {len(d)} legs")
    factor, binding = 1.0, None
    for index, (stake, limit) in enumerate(zip(stakes, limits, strict=True)):
        if limit is None:
            continue
        check_positive(limit, f"limit of leg {index + 1}")
        if stake > limit and limit / stake < factor:
            factor, binding = limit / stake, index
    if binding is None:
        return list(stakes), None
    scaled = [stake * factor for stake in stakes]
    scaled[binding] = float(limits[binding])  # type: ignore[arg-type]  # exact, not 499.99999
    return scaled, binding


def rounded_stakes(
    prices: Sequence[float],
    total: float,
    step: float,
    round_up: bool = False,
    limits: Sequence[float | None] | None = None,
) -> RoundedStakes:
    """Equal-return stakes rounded to ``step``, nudged to keep the guaranteed result highest.

    The rounded stakes never add up to more than ``total`` (``round_up``: never to less), and
    rounding down never leaves a whole step per leg unstaked (the total stays above
    ``total - legs · step``: 46/54 at a step of 20 is 40/40, not 20/20). No leg stakes over
    its limit in ``limits`` (None: no limit). Each stake is first rounded down (up) to a step,
    at least one step. For up to four legs, every combination of -1, 0 and +1 step per leg
    that keeps to the total is tried and the one with the highest guaranteed result wins; ties
    go to the total nearest ``total``, then to the higher best case. Rounding up, the smallest
    total wins first, so the stake grows no more than it must; when a leg's limit keeps the
    total under ``total``, the total nearest it wins.
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
    caps = _unit_caps(limits, len(d), r)
    places = _decimal_places(r)
    ideal = equal_return_stakes(d, t)
    slack = r * 1e-9
    nudge = -1e-9 if round_up else 1e-9  # 49.99999999 steps are 50 steps
    to_step = math.ceil if round_up else math.floor
    base = [min(cap, max(1, to_step(s / r + nudge))) for s, cap in zip(ideal, caps, strict=True)]
    floor_total = t - r * len(d) + slack  # rounding down stays above this

    def stakes_of(units: Sequence[int]) -> tuple[float, ...]:
        return tuple(round(u * r, places) for u in units)

    def allowed(units: Sequence[int]) -> bool:
        return min(units) >= 1 and all(u <= cap for u, cap in zip(units, caps, strict=True))

    def keeps_to_total(units: Sequence[int]) -> bool:
        stake = sum(units) * r
        return stake >= t - slack if round_up else floor_total < stake <= t + slack

    def rank(units: Sequence[int]) -> tuple[float, float, float]:
        stakes = stakes_of(units)
        guaranteed = round(guaranteed_result(d, stakes), 9)
        if round_up:  # as little over the total as can be, then the best guarantee
            return (-abs(sum(stakes) - t), guaranteed, best_case_result(d, stakes))
        return (guaranteed, -abs(sum(stakes) - t), best_case_result(d, stakes))

    best = base
    if len(d) <= MAX_SEARCH_LEGS:
        candidates = [
            [b + delta for b, delta in zip(base, deltas, strict=True)]
            for deltas in itertools.product((0, -1, 1), repeat=len(d))
        ]
        valid = [c for c in candidates if allowed(c) and keeps_to_total(c)]
        if not valid and round_up:  # a limit keeps the total under the one asked
            valid = [c for c in candidates if allowed(c) and sum(c) * r <= t + slack]
        if not valid:
            raise ValueError(
                f"a total of {total:g} cannot be split in steps of {step:g} at these prices: "
                "raise it or choose round up"
            )
        best = max(valid, key=rank)
    elif not round_up:
        while sum(best) * r > t + slack:  # legs raised to one step: take it off the largest
            largest = best.index(max(best))
            best = [u - 1 if i == largest else u for i, u in enumerate(best)]
    stakes = stakes_of(best)
    return RoundedStakes(
        stakes=stakes,
        total=round(sum(stakes), places),
        guaranteed=guaranteed_result(d, stakes),
        best_case=best_case_result(d, stakes),
    )


#: The rounding steps offered instead of one that loses, largest first.
NICE_STEPS = (100.0, 50.0, 25.0, 20.0, 10.0, 5.0, 2.0, 1.0, 0.5, 0.1, 0.05, 0.01)
#: A worst case this far under zero is float error, not a loss.
LOSS_TOLERANCE = 1e-9


def is_loss(result: float) -> bool:
    """True when a guaranteed result loses money (beyond float error)."""
    return result < -LOSS_TOLERANCE


@dataclass(frozen=True, slots=True)
class RoundingChoice:
    """A rounding (step and direction) and the stakes it gives."""

    step: float
    round_up: bool
    result: RoundedStakes


def safer_rounding(
    prices: Sequence[float],
    total: float,
    step: float,
    round_up: bool = False,
    limits: Sequence[float | None] | None = None,
) -> RoundingChoice | None:
    """The nearest rounding whose worst case is no loss: the same step the other way, then
    each smaller step of `NICE_STEPS`, down before up. None when none of them is."""
    tries = [(step, not round_up)]
    tries += [(nice, up) for nice in NICE_STEPS if nice < step * (1 - 1e-9) for up in (False, True)]
    for nice, up in tries:
        try:
            result = rounded_stakes(prices, total, nice, up, limits)
        except ValueError:
            continue
        if not is_loss(result.guaranteed):
            return RoundingChoice(nice, up, result)
    return None


def _unit_caps(limits: Sequence[float | None] | None, legs: int, step: float) -> list[int]:
    """The most steps each leg may take under its limit (no end without one)."""
    if limits is None:
        return [sys.maxsize] * legs
    if len(limits) != legs:
        raise ValueError(f"need one limit per leg, for {legs} legs")
    caps: list[int] = []
    for index, limit in enumerate(limits):
        if limit is None:
            caps.append(sys.maxsize)
            continue
        units = math.floor(check_positive(limit, f"limit of leg {index + 1}") / step + 1e-9)
        if units < 1:
            raise ValueError(
                f"leg {index + 1}'s limit {limit:g} is below the rounding step {step:g}: "
                "choose a smaller step"
            )
        caps.append(units)
    return caps


def _decimal_places(step: float) -> int:
    exponent = Decimal(repr(step)).normalize().as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0
