"""Kaplan–Meier quantiles of follow times, some of them censored (never followed in time).

A mean of the follows seen would leave out exactly the slow ones; treating a censored follow as
a follow at the horizon would invent a time. The product-limit estimate uses each censored
follow for as long as it was watched. (A dozen lines; lifelines would bring pandas.)
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import itemgetter


def km_quantiles(
    samples: Iterable[tuple[float, bool]], quantiles: tuple[float, ...] = (0.5, 0.9)
) -> tuple[float | None, ...]:
    """`samples`: (time, followed); False is censored at `time`. For each q, the least time
    by which a share q has followed (the survival curve at or below 1 - q), or None when the
    curve never gets there (too many censored)."""
    # By time only (a C key): the follows and censorings at one time are counted together, so
    # their order among themselves does not matter.
    ordered = sorted(samples, key=_time)
    size = at_risk = len(ordered)
    survival = 1.0
    levels = [1.0 - q + 1e-12 for q in quantiles]
    found: list[float | None] = [None] * len(quantiles)
    missing = len(quantiles)
    i = 0
    while i < size:
        start = i
        time = ordered[i][0]
        events = 0
        while i < size:
            at, followed = ordered[i]
            if at != time:
                break
            if followed:
                events += 1
            i += 1
        if events:
            survival *= 1.0 - events / at_risk
            for j, level in enumerate(levels):
                if found[j] is None and survival <= level:
                    found[j] = time
                    missing -= 1
            if not missing:
                break  # every quantile found: the rest of the curve changes none
        at_risk -= i - start
    return tuple(found)


def count_followed(samples: Iterable[tuple[float, bool]]) -> int:
    """How many of `samples` followed (were not censored)."""
    return len(list(filter(_followed, samples)))


_time = itemgetter(0)
_followed = itemgetter(1)


def median(values: list[float]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2.0
