"""Kaplan–Meier quantiles of follow times, some of them censored (never followed in time).

A mean of the follows seen would leave out exactly the slow ones; treating a censored follow as
a follow at the horizon would invent a time. The product-limit estimate uses each censored
follow for as long as it was watched. (A dozen lines; lifelines would bring pandas.)
"""

from __future__ import annotations

from collections.abc import Iterable


def km_quantiles(
    samples: Iterable[tuple[float, bool]], quantiles: tuple[float, ...] = (0.5, 0.9)
) -> tuple[float | None, ...]:
    """`samples`: (time, followed); False is censored at `time`. For each q, the least time
    by which a share q has followed (the survival curve at or below 1 - q), or None when the
    curve never gets there (too many censored)."""
    ordered = sorted(samples, key=lambda s: (s[0], not s[1]))  # events before censorings
    at_risk = len(ordered)
    survival = 1.0
    found: list[float | None] = [None] * len(quantiles)
    i = 0
    while i < len(ordered) and at_risk > 0:
        time = ordered[i][0]
        events = censored = 0
        while i < len(ordered) and ordered[i][0] == time:
            if ordered[i][1]:
                events += 1
            else:
                censored += 1
            i += 1
        if events:
            survival *= 1.0 - events / at_risk
            for j, q in enumerate(quantiles):
                if found[j] is None and survival <= 1.0 - q + 1e-12:
                    found[j] = time
        at_risk -= events + censored
    return tuple(found)


def median(values: list[float]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2.0
