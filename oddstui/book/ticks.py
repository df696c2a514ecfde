"""The exchange tick ladder, for counting price moves in ticks.

Bookmaker prices are not on the ladder, so a tick position can be fractional: 2.01 sits half a
tick above 2.00.
"""

from __future__ import annotations

from oddstui.book._validate import check_price

# (low, high, step): prices from low up to high move in steps of step.
TICK_BANDS: tuple[tuple[float, float, float], ...] = (
    (1.01, 2.0, 0.01),
    (2.0, 3.0, 0.02),
    (3.0, 4.0, 0.05),
    (4.0, 6.0, 0.1),
    (6.0, 10.0, 0.2),
    (10.0, 20.0, 0.5),
    (20.0, 30.0, 1.0),
    (30.0, 50.0, 2.0),
    (50.0, 100.0, 5.0),
    (100.0, 1000.0, 10.0),
)
MIN_TICK_PRICE = 1.01
MAX_TICK_PRICE = 1000.0


def _band_starts() -> tuple[float, ...]:
    starts = [0.0]
    for low, high, step in TICK_BANDS[:-1]:
        starts.append(starts[-1] + round((high - low) / step))
    return tuple(starts)


_BAND_START_INDEX = _band_starts()


def _band(d: float) -> int:
    for i, (_low, high, _step) in enumerate(TICK_BANDS):
        if d < high:
            return i
    return len(TICK_BANDS) - 1


def tick_size(decimal: float) -> float:
    """The step of the band a price sits in; a boundary takes the step above (2.0 -> 0.02)."""
    return TICK_BANDS[_band(check_price(decimal))][2]


def tick_index(decimal: float) -> float:
    """Position of a price on the ladder: 1.01 is 0, 2.0 is 99, 2.02 is 100 (fractional between)."""
    d = check_price(decimal)
    i = _band(d)
    low, _high, step = TICK_BANDS[i]
    return _BAND_START_INDEX[i] + (d - low) / step


def ticks_between(start: float, end: float) -> float:
    """Signed ladder ticks from ``start`` to ``end``; positive when the price drifted out."""
    return round(tick_index(end) - tick_index(start), 9)


def nearest_tick(decimal: float) -> float:
    """The ladder price closest to ``decimal``, clamped to [1.01, 1000]."""
    d = min(max(check_price(decimal), MIN_TICK_PRICE), MAX_TICK_PRICE)
    i = _band(d)
    low, _high, step = TICK_BANDS[i]
    return round(low + round((d - low) / step) * step, 2)
