"""What the benchmarks share: percentiles, reading a pty's output with its arrival times, and
the one line of headline figures that `run_all.py` reads."""

from __future__ import annotations

import json
import os
import time


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of `values` lie (nearest rank); NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(int(share * len(ordered)), len(ordered) - 1)]


def drain_pty(master: int, received: list[tuple[float, int]], dump: str = "") -> None:
    """Read everything the app writes to its terminal, noting (time, bytes) of each chunk;
    with `dump`, also append the raw output to that file. Returns when the pty closes."""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            return
        if not chunk:
            return
        received.append((time.monotonic(), len(chunk)))
        if dump:
            with open(dump, "ab") as out:
                out.write(chunk)


def emit(row: str, **figures: float | list[float]) -> None:
    """The headline figures of one row of `docs/benchmarks.md`, as one `FIGURES {json}` line:
    a figure is one value or the values of the benchmark's own repeated runs (`run_all.py`
    takes the median and range over every value of every run). The benchmark's own report is
    the text it prints around it."""
    print("FIGURES " + json.dumps({"row": row, **figures}), flush=True)
