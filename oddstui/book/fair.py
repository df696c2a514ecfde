"""Fair prices: the bookmaker's margin removed by one of four methods (see MATHS.md).

Which method the desk uses is not chosen here: `book.fair_policy` holds that one choice.
Only valid when every side of the market is quoted: a missing side raises ``ValueError``, so
that no caller ever invents a fair line from half a market.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Literal

from oddstui.book._validate import check_index, check_prices

FairMethod = Literal["multiplicative", "additive", "power", "shin"]
METHODS: tuple[FairMethod, ...] = ("multiplicative", "additive", "power", "shin")

_MAX_ITERATIONS = 200
_TOLERANCE = 1e-14


def fair_probabilities(
    prices: Sequence[float], method: FairMethod
) -> list[float]:
    """Probabilities that sum to 1, one per side, in the order of ``prices``."""
    q = [1.0 / d for d in check_prices(prices, minimum=2)]
    try:
        remove = _METHODS[method]
    except KeyError:
        raise ValueError(
            f"unknown fair-price method {method!r}; use one of {', '.join(METHODS)}"
        ) from None
    return remove(q)


def fair_prices(prices: Sequence[float], method: FairMethod) -> list[float]:
    """Decimal prices with the margin removed: ``1/p_i``."""
    return [1.0 / p for p in fair_probabilities(prices, method)]


def worst_case_probability(prices: Sequence[float], index: int) -> float:
    """The lowest fair probability of side ``index`` across all methods (the cautious one)."""
    check_index(index, len(prices), "side")
    return min(fair_probabilities(prices, method)[index] for method in METHODS)


def _multiplicative(q: list[float]) -> list[float]:
    s = sum(q)
    return [qi / s for qi in q]


def _additive(q: list[float]) -> list[float]:
    share = (sum(q) - 1.0) / len(q)
    p = [qi - share for qi in q]
    if min(p) <= 0.0:
        return _multiplicative(q)
    return _normalised(p)


def _power(q: list[float]) -> list[float]:
    # sum(q_i ** k) falls as k grows (every q_i < 1), from n at k = 0 towards 0.
    def excess(k: float) -> float:
        return sum(qi**k for qi in q) - 1.0

    low, high = 0.0, 1.0
    while excess(high) > 0.0:
        low, high = high, high * 2.0
        if high > 1e6:
            return _multiplicative(q)
    for _ in range(_MAX_ITERATIONS):
        mid = (low + high) / 2.0
        if excess(mid) > 0.0:
            low = mid
        else:
            high = mid
        if high - low < _TOLERANCE:
            break
    k = (low + high) / 2.0
    return _normalised([qi**k for qi in q])


def _shin(q: list[float]) -> list[float]:
    n = len(q)
    s = sum(q)
    if n == 2:
        d2 = (q[0] - q[1]) ** 2
        z = (s - 1.0) * (d2 - s) / (s * (d2 - 1.0))
    else:
        z = _shin_z(q, s)
    if not (math.isfinite(z) and z < 1.0):
        return _multiplicative(q)
    p = [(math.sqrt(z * z + 4.0 * (1.0 - z) * qi * qi / s) - z) / (2.0 * (1.0 - z)) for qi in q]
    if min(p) <= 0.0:
        return _multiplicative(q)
    return _normalised(p)


def _shin_z(q: list[float], s: float) -> float:
    """The fixed point of ``z <- (sum(sqrt(z² + 4(1-z)q_i²/S)) - 2)/(n - 2)`` from ``z = 0``.

    Plain iteration converges linearly (hundreds of steps), so Newton's method is applied to
    ``F(z) - z`` with a fallback to plain iteration if it fails to settle.
    """
    n = len(q)
    c = [4.0 * qi * qi / s for qi in q]

    def step(z: float) -> tuple[float, float]:
        roots = [math.sqrt(z * z + (1.0 - z) * ci) for ci in c]
        value = (sum(roots) - 2.0) / (n - 2)
        slope = sum((2.0 * z - ci) / (2.0 * r) for ci, r in zip(c, roots, strict=True)) / (n - 2)
        return value, slope

    z = 0.0
    for _ in range(50):
        value, slope = step(z)
        if slope == 1.0:
            break
        new_z = z - (value - z) / (slope - 1.0)
        if not math.isfinite(new_z) or new_z >= 1.0:
            break
        if abs(new_z - z) < _TOLERANCE:
            return new_z
        z = new_z
    z = 0.0
    for _ in range(10_000):
        new_z = step(z)[0]
        if abs(new_z - z) < _TOLERANCE:
            return new_z
        z = new_z
    return z


def _normalised(p: list[float]) -> list[float]:
    total = sum(p)
    return [pi / total for pi in p]


_METHODS: dict[str, Callable[[list[float]], list[float]]] = {
    "multiplicative": _multiplicative,
    "additive": _additive,
    "power": _power,
    "shin": _shin,
}
