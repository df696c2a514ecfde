"""Dropping odds: how far a price has shortened, with the noise rules of MATHS.md.

A price history is a sequence of ``(time_seconds, price)`` ticks in time order; a price of
``None`` marks a suspension.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from oddstui.book._validate import check_price

MIN_VALID_OPENING = 1.01
"""Opening prices below this are invalid (placeholders, not quotes)."""
MIN_MOVE_SECONDS = 60.0
"""A price that held for less than this is noise."""
REOPEN_GRACE_SECONDS = 120.0
"""The first price after a suspension must hold this long before it counts."""

Tick = tuple[float, float | None]
WINDOWS = {"12h": 12 * 3600.0, "24h": 24 * 3600.0, "48h": 48 * 3600.0}
"""The /dropping-odds windows; the drop since opening is the window named "opening"."""


@dataclass(frozen=True, slots=True)
class DropFigures:
    """One side of one line, after the noise rules: what /dropping-odds says of it."""

    opening: float
    current: float
    drops: dict[str, float | None]
    """Drop % (rounded to 0.01) since "opening" and over each of `WINDOWS`; None: not known."""
    last_moved: float | None
    """When the last counted move happened; None when the price never moved."""


def drop_percent(reference: float, now: float) -> float:
    """``(d_ref - d_now) / d_ref · 100``; positive when the price shortened."""
    ref = check_price(reference, "reference price")
    if not is_valid_opening(ref):
        raise ValueError(f"reference price {ref:g} is below {MIN_VALID_OPENING} and invalid")
    return (ref - check_price(now, "current price")) / ref * 100.0


def is_valid_opening(price: float | None) -> bool:
    """An opening (or reference) price is usable only from 1.01 up."""
    return price is not None and math.isfinite(price) and price >= MIN_VALID_OPENING


def stable_ticks(
    ticks: Sequence[Tick],
    now: float,
    min_move_seconds: float = MIN_MOVE_SECONDS,
    reopen_grace_seconds: float = REOPEN_GRACE_SECONDS,
) -> list[tuple[float, float]]:
    """The ticks that count: each price held long enough, suspensions and reopen spikes removed.

    A price counts when it lasted ``min_move_seconds`` before the next tick (or until ``now``);
    the first price after a suspension must last ``reopen_grace_seconds``.
    """
    kept: list[tuple[float, float]] = []
    after_suspension = False
    for i, (at, price) in enumerate(ticks):
        if price is None:
            after_suspension = True
            continue
        until = ticks[i + 1][0] if i + 1 < len(ticks) else now
        needed = reopen_grace_seconds if after_suspension else min_move_seconds
        after_suspension = False
        if until - at < needed or not math.isfinite(price) or price <= 1.0:
            continue
        if kept and kept[-1][1] == price:
            continue
        kept.append((at, price))
    return kept


def price_at(ticks: Sequence[tuple[float, float]], at: float) -> float | None:
    """The price in force at time ``at`` (the last tick at or before it), or None."""
    current = None
    for when, price in ticks:
        if when > at:
            break
        current = price
    return current


def window_drop(
    ticks: Sequence[Tick],
    now: float,
    window_seconds: float | None,
    min_move_seconds: float = MIN_MOVE_SECONDS,
) -> float | None:
    """Drop % over a window (None: since opening), after the noise rules; None when unknown.

    The reference is the stable price in force at the window's start (the opening price when
    the window is None or reaches before the first tick is not known).
    """
    stable = stable_ticks(ticks, now, min_move_seconds)
    if not stable:
        return None
    if window_seconds is None:
        reference: float | None = stable[0][1]
    else:
        reference = price_at(stable, now - window_seconds)
    if reference is None or not is_valid_opening(reference):
        return None
    return drop_percent(reference, stable[-1][1])


def drop_figures(ticks: Sequence[Tick], now: float) -> DropFigures | None:
    """The figures of a price history at `now`; None without a valid opening price."""
    stable = stable_ticks(ticks, now)
    if not stable or not is_valid_opening(stable[0][1]):
        return None
    opening, current = stable[0][1], stable[-1][1]
    drops: dict[str, float | None] = {"opening": round(drop_percent(opening, current), 2)}
    for name, seconds in WINDOWS.items():
        reference = price_at(stable, now - seconds)
        drops[name] = (
            round(drop_percent(reference, current), 2)
            if reference is not None and is_valid_opening(reference)
            else None
        )
    moved = stable[-1][0] if len(stable) > 1 else None
    return DropFigures(opening, current, drops, moved)
