"""The resolution of the source's timestamps: no lag is finer than the clock it was read from.

Each time seen is tested against grids of 1 s, 0.1 s, 0.01 s and 1 ms; the resolution is the
finest grid that every time seen fits (1 ms at best: a float of epoch seconds holds no finer
digits reliably).
"""

from __future__ import annotations

GRIDS = (1.0, 0.1, 0.01, 0.001)


class Resolution:
    __slots__ = ("_level",)

    def __init__(self) -> None:
        self._level = 0
        """The index into GRIDS of the finest grid needed so far."""

    def see(self, time: float) -> None:
        level = self._level
        while level < len(GRIDS) - 1:
            steps = time / GRIDS[level]
            if abs(steps - round(steps)) < 1e-3:
                return
            level += 1
            self._level = level

    @property
    def seconds(self) -> float:
        return GRIDS[self._level]

    def merge(self, other: Resolution) -> None:
        self._level = max(self._level, other._level)
