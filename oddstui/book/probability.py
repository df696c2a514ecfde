"""Implied probability, booksum, overround, margin and payout (see MATHS.md)."""

from __future__ import annotations

from collections.abc import Sequence

from oddstui.book._validate import check_prices


def implied(prices: Sequence[float]) -> list[float]:
    """``q_i = 1/d_i`` for each decimal price."""
    return [1.0 / d for d in check_prices(prices)]


def booksum(prices: Sequence[float]) -> float:
    """``S = sum(1/d_i)``: above 1 for a normal book, below 1 for an arbitrage."""
    return sum(implied(prices))


def overround(prices: Sequence[float]) -> float:
    """``S - 1``."""
    return booksum(prices) - 1.0


def margin(prices: Sequence[float]) -> float:
    """The bookmaker's hold, ``1 - 1/S``."""
    return 1.0 - 1.0 / booksum(prices)


def payout(prices: Sequence[float]) -> float:
    """The return to player, ``1/S``."""
    return 1.0 / booksum(prices)
