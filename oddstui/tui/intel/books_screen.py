"""Books (`8`): this session's measures per bookmaker — who leads, who follows, which books copy
another, how long their stale lines live (docs/books.md)."""

from __future__ import annotations

import time
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.widgets import Static

from oddstui.tui.desk.state import ChangeSet
from oddstui.tui.intel.intel_rows import (
    BOOK_COLUMNS,
    book_cells,
    book_records,
    book_rows,
    book_sort,
)
from oddstui.tui.kit.board_screen import BoardScreen
from oddstui.tui.kit.export_action import export_and_say, export_bindings
from oddstui.tui.kit.patch_table import PatchTable

#: Seconds between two redraws: the measures move slowly, and a redraw reads every book.
REDRAW_EVERY = 2.0


class BooksScreen(BoardScreen):
    """Per bookmaker: median and p90 lag to follow a sharp move (Kaplan–Meier, with the follows
    they rest on), share of moves led, sister cluster, stale-line life, updates per
    market-hour and margin. Information, not advice.

    | key | action |
    |---|---|
    | `o` / `O` | sort by the next column / reverse |
    | `F` | find: filter the rows by text |
    | `e` / `E` / `ctrl+e` | export the table to CSV / JSON / Parquet in the working folder |
    """

    heading = "Books"
    AUTO_FOCUS = "#books"
    BINDINGS: ClassVar[list[BindingType]] = [*export_bindings("books-export")]

    def __init__(self) -> None:
        super().__init__()
        self._drawn = float("-inf")

    def compose_body(self) -> ComposeResult:
        yield Static("", classes="summary", id="books-summary")
        table = PatchTable(id="books")
        table.set_columns(BOOK_COLUMNS)
        yield table

    def redraw(self) -> None:
        intel = self.hub.intel
        rows = book_rows(intel.engine)
        table = self.query_one("#books", PatchTable)
        keys = []
        for figures in rows:
            table.sync_row(figures.bookmaker, book_cells(figures), sort=book_sort(figures))
            keys.append(figures.bookmaker)
        table.keep_rows(keys)
        order = sorted(rows, key=lambda b: (b.lag_median is None, b.lag_median or 0.0,
                                            b.bookmaker))
        table.order_rows([b.bookmaker for b in order])
        engine = intel.engine
        self.query_one("#books-summary", Static).update(Text(
            f"{engine.sharp_moves:,} sharp moves in {engine.changes:,} price changes this "
            f"session; lags to {intel.resolution:.2g} s. ★ sets the fair price."
        ))
        self._drawn = time.monotonic()

    def patch(self, changes: ChangeSet) -> None:
        if changes.prices and time.monotonic() - self._drawn >= REDRAW_EVERY:
            self.redraw()

    def action_export(self, fmt: str) -> None:
        rows = book_rows(self.hub.intel.engine)
        export_and_say(self, self.heading, book_records(rows, self.hub.intel.resolution), fmt,
                       noun="bookmakers")
