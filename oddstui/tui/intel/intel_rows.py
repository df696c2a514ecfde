"""The Books screen's rows, cells and export records (the Stale lines board's: `stale_rows`).

No textual here (rich `Text` only), so the cells are tested directly. Figures are copied out of
the engine first (`book_rows`) and formatted after.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from oddstui.intel.engine import IntelEngine
from oddstui.intel.report import BookFigures, report_of
from oddstui.tui.kit.columns import Column
from oddstui.tui.text import plain

BOOK_COLUMNS: list[Column] = [
    Column("book", "Bookmaker", 12, grow=8),
    Column("lag", "Lag med", 7, justify="right"),
    Column("p90", "Lag p90", 7, justify="right"),
    Column("n", "Follows", 7, justify="right"),
    Column("led", "Led", 5, justify="right"),
    Column("cluster", "Cluster", 10, priority=1, grow=6),
    Column("stale", "Stale med", 9, priority=1, justify="right"),
    Column("censored", "Censored", 8, priority=2, justify="right"),
    Column("updates", "Upd/mkt-h", 9, priority=2, justify="right"),
    Column("margin", "Margin", 6, priority=2, justify="right"),
]

def _seconds(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}s"


def book_rows(engine: IntelEngine) -> list[BookFigures]:
    return report_of(engine).books


def book_cells(b: BookFigures) -> dict[str, Text]:
    return {
        "book": plain(b.bookmaker + (" ★" if b.sharp else "")),
        "lag": Text("sharp" if b.sharp else _seconds(b.lag_median)),
        "p90": Text("" if b.sharp else _seconds(b.lag_p90)),
        "n": Text(str(b.follows)),
        "led": Text("—" if b.led_share is None else f"{b.led_share * 100:.0f}%"),
        "cluster": plain(b.cluster if b.cluster != b.bookmaker else ""),
        "stale": Text(_seconds(b.stale_median)),
        "censored": Text(str(b.censored)),
        "updates": Text("—" if b.updates_per_hour is None else f"{b.updates_per_hour:.0f}"),
        "margin": Text("—" if b.margin_pct is None else f"{b.margin_pct:.1f}%"),
    }


def book_sort(b: BookFigures) -> dict[str, float | str | None]:
    """What the columns sort by (their texts carry units, % and dashes): the numbers, a sharp
    book's lag as 0 (it leads), the cluster by name; None sorts last."""
    return {
        "book": b.bookmaker.casefold(),
        "lag": 0.0 if b.sharp else b.lag_median,
        "p90": 0.0 if b.sharp else b.lag_p90,
        "n": b.follows, "led": b.led_share, "cluster": b.cluster.casefold(),
        "stale": b.stale_median, "censored": b.censored, "updates": b.updates_per_hour,
        "margin": b.margin_pct,
    }


def book_records(rows: list[BookFigures], resolution: float) -> list[dict[str, Any]]:
    return [
        {
            "bookmaker": b.bookmaker, "sharp": b.sharp, "lag_median_s": b.lag_median,
            "lag_p90_s": b.lag_p90, "follows": b.follows, "censored": b.censored,
            "led_share": b.led_share, "updates_per_market_hour": b.updates_per_hour,
            "margin_pct": b.margin_pct, "cluster": b.cluster,
            "stale_median_s": b.stale_median, "stale_n": b.stale_n,
            "resolution_s": resolution,
        }
        for b in rows
    ]
