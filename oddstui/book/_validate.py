"""Shared input checks for the betting maths.

Every public function validates its input and raises ``ValueError`` with a message that a UI can
show inline as it is.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def check_price(price: float | None, what: str = "price") -> float:
    """Return ``price`` as a float if it is a usable decimal price (finite and above 1.0)."""
    if price is None:
        raise ValueError(f"{what} is missing")
    try:
        value = float(price)
    except (TypeError, ValueError):
        raise ValueError(f"{what} {price!r} is not a number") from None
    if not math.isfinite(value):
        raise ValueError(f"{what} {price!r} is not a finite number")
    if value <= 1.0:
        raise ValueError(f"{what} {value:g} must be above 1.0 (decimal odds)")
    return value


def check_prices(prices: Sequence[float | None], minimum: int = 1) -> list[float]:
    """Validate a list of decimal prices, one per side."""
    if len(prices) < minimum:
        raise ValueError(f"need at least {minimum} prices, got {len(prices)}")
    return [check_price(p, f"price {i + 1}") for i, p in enumerate(prices)]


def check_positive(value: float, what: str) -> float:
    """Return ``value`` if it is a finite number above zero."""
    number = float(value)
    if not math.isfinite(number) or number <= 0:
        raise ValueError(f"{what} must be a positive number, got {value!r}")
    return number


def check_probability(p: float) -> float:
    """Return ``p`` if it lies in [0, 1]."""
    value = float(p)
    if not (0.0 <= value <= 1.0):
        raise ValueError(f"probability must be between 0 and 1, got {p!r}")
    return value


def check_index(index: int, size: int, what: str = "index") -> int:
    if not 0 <= index < size:
        raise ValueError(f"{what} {index} is out of range for {size} sides")
    return index
