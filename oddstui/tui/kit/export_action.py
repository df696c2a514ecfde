"""`e` / `E` / `ctrl+e` on any board or table: write its records and say where, in one line."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from textual.binding import Binding
from textual.screen import Screen

from oddstui.tui.kit.export import ExportError, Record, write_records


def export_bindings(prefix: str, *, show: bool = True) -> list[Binding]:
    """The three export keys, with ids under `prefix` (`board-export`, `bets-export`, …); `e`
    in the footer when `show` (else in the help only)."""
    return [
        Binding("e", "export('csv')", "Export", show=show, id=prefix),
        # One help line for both (the help lists keys with a description; a board's list is long).
        Binding("E", "export('json')", "JSON (ctrl+e: Parquet)", show=False, id=f"{prefix}-json"),
        Binding("ctrl+e", "export('parquet')", "", show=False, id=f"{prefix}-parquet"),
    ]


def export_and_say(
    screen: Screen[Any], name: str, records: Sequence[Record], fmt: str, noun: str = "rows"
) -> Path | None:
    """Write `records` in the working folder and notify the file's name (or why not)."""
    try:
        path = write_records(Path.cwd(), name, records, fmt, datetime.now())
    except ExportError as error:
        screen.notify(str(error), severity="error", markup=False)
        return None
    except OSError as error:
        screen.notify(f"Could not export: {error.strerror}", severity="error", markup=False)
        return None
    screen.notify(f"Exported {len(records)} {noun} to {path.name}", timeout=6, markup=False)
    return path
