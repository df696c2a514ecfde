"""The benchmark's baseline: a DataTable updated cell by cell on every feed message.

This is how a grid is usually first written: the feed thread hands each odds message to the UI,
which calls `update_cell(..., update_width=True)` for every price in it. `benchmarks/tui_live.py`
runs it (`bench_event.NaiveEventScreen`) to show what coalescing and cell-region repaints save.
The desk never uses it.
"""

from __future__ import annotations

import asyncio
from typing import Any

from paint_log import PaintLog
from rich.text import Text
from textual.widgets import DataTable

from oddstui.api.messages import OddsMessage
from oddstui.book.formats import OddsFormat, format_price
from oddstui.book.probability import margin
from oddstui.book.state import LineKey
from oddstui.tui.event.price_rows import margin_text, side_label
from oddstui.tui.text import plain


class NaiveGrid(DataTable[Text]):
    """Rows = bookmakers, columns = sides; one `update_cell` per price of every message."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row")
        self._book: Any = None
        self._original_apply: Any = None
        self._target: tuple[int, str, LineKey] | None = None
        self._sides: list[str] = []
        self._fmt: OddsFormat = "decimal"
        self._log: PaintLog | None = None
        self.messages_shown = 0
        """Feed messages that rewrote a row since `attach`."""

    def attach(
        self,
        book: Any,
        event_id: int,
        market: str,
        line: LineKey,
        sides: list[str],
        fmt: OddsFormat,
        log: PaintLog | None,
    ) -> None:
        """Show this market and line, and from now on take every message of the event."""
        self.detach()
        self.clear(columns=True)
        self._target, self._sides, self._fmt, self._log = (event_id, market, line), sides, fmt, log
        self.add_column("Bookmaker", key="book")
        for side in sides:
            self.add_column(side_label(side), key=side)
        self.add_column("Margin", key="margin")
        self.add_column("Age", key="age")
        for bookmaker, prices in sorted(book.quotes(event_id, market, line).items()):
            self._write_row(bookmaker, prices)
        loop = asyncio.get_running_loop()
        original = book.apply_odds  # the feed's call for odds messages

        def apply_odds(message: OddsMessage) -> None:
            original(message)
            if message.event_id == event_id:
                loop.call_soon_threadsafe(self._take_message, message)

        self._book, self._original_apply = book, original
        book.apply_odds = apply_odds

    def detach(self) -> None:
        if self._book is not None:
            self._book.apply_odds = self._original_apply
            self._book = None

    def on_unmount(self) -> None:
        self.detach()

    def _take_message(self, message: OddsMessage) -> None:
        if self._target is None:
            return
        _, market, line = self._target
        updated = False
        for quote in message.markets:
            if quote.name != market:
                continue
            for entry in quote.lines:
                if entry.key != line:
                    continue
                self._write_row(message.bookie, entry.prices)
                updated = True
        if updated:
            self.messages_shown += 1
            if self._log is not None:
                self.call_after_refresh(self._log.painted, message.received)

    def _write_row(self, bookmaker: str, prices: dict[str, float]) -> None:
        """Every cell of the row, each with `update_cell(..., update_width=True)`."""
        if bookmaker not in self.rows:
            self.add_row(*[Text("") for _ in range(len(self._sides) + 3)], key=bookmaker)
        self.update_cell(bookmaker, "book", plain(bookmaker), update_width=True)
        quoted = [prices[side] for side in self._sides if side in prices]
        for side in self._sides:
            text = Text(format_price(prices.get(side), self._fmt), justify="right")
            self.update_cell(bookmaker, side, text, update_width=True)
        hold = margin(quoted) if len(quoted) == len(self._sides) >= 2 else None
        self.update_cell(bookmaker, "margin", Text(margin_text(hold)), update_width=True)
        self.update_cell(bookmaker, "age", Text("0s"), update_width=True)
