"""Benchmark instrumentation of the Event screen, off unless `ODDSTUI_PAINT_LOG` names a file.

`benchmarks/tui_live.py` sets it. The screen then writes one line per paint with the receive
stamp of the newest message painted (`paint <painted> <received>`, both `time.monotonic()`), and
a probe writes how late the event loop wakes (`lag <seconds> <when>`) and, once a second, how
many feed messages the book has applied (`applied <when> <count>`). `ODDSTUI_NAIVE_GRID=1` selects
the naive grid the benchmark compares against.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from typing import TextIO

PAINT_LOG_ENV = "ODDSTUI_PAINT_LOG"
NAIVE_GRID_ENV = "ODDSTUI_NAIVE_GRID"
#: How often the loop-lag probe wakes, in seconds.
PROBE_INTERVAL = 0.05


class PaintLog:
    """Appends lines to the benchmark's log file (line-buffered, so a killed app loses little)."""

    def __init__(self, path: str) -> None:
        self._file: TextIO = open(path, "a", buffering=1, encoding="utf-8")  # noqa: SIM115
        self._probing = False

    def painted(self, received: float) -> None:
        self._file.write(f"paint {time.monotonic():.6f} {received:.6f}\n")

    async def probe_loop_lag(self, applied: Callable[[], int] | None = None) -> None:
        """Forever: sleep `PROBE_INTERVAL` and log how much later than asked the loop woke;
        once a second, also how many feed messages the book has applied (`applied`)."""
        if self._probing:
            return
        self._probing = True
        wakes = 0
        while True:
            asked = time.monotonic()
            await asyncio.sleep(PROBE_INTERVAL)
            woke = time.monotonic()
            self._file.write(f"lag {max(woke - asked - PROBE_INTERVAL, 0.0):.6f} {woke:.6f}\n")
            wakes += 1
            if applied is not None and wakes % round(1 / PROBE_INTERVAL) == 0:
                self._file.write(f"applied {woke:.6f} {applied()}\n")


_log: PaintLog | None = None


def paint_log() -> PaintLog | None:
    """The process's paint log, or None when the benchmark did not ask for one."""
    global _log
    path = os.environ.get(PAINT_LOG_ENV)
    if not path:
        return None
    if _log is None:
        _log = PaintLog(path)
    return _log


def naive_grid_requested() -> bool:
    return os.environ.get(NAIVE_GRID_ENV, "") not in ("", "0")
