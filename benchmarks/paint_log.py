"""The benchmarks' log of the Event screen (`bench_event.py` writes it, `tui_live.py` reads it).

One line per paint with the receive stamp of the newest message painted (`paint <painted>
<received>`, both `time.monotonic()`), and a probe's lines of how late the event loop wakes
(`lag <seconds> <when>`) and, once a second, how many feed messages the book has applied
(`applied <when> <count>`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TextIO

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
