"""The Event screen as the benchmarks measure it: the desk's own screen, with a paint log, and
the naive grid it is compared against. Nothing here is part of the desk.

    app.push_screen(LoggedEventScreen(event_id, PaintLog(path)))   # the desk's grid, logged
    app.push_screen(NaiveEventScreen(event_id, PaintLog(path)))    # a DataTable per message
"""

from __future__ import annotations

from collections.abc import Iterator

from naive_grid import NaiveGrid
from paint_log import PaintLog
from textual.widget import Widget

from oddstui.tui.event.event_screen import EventScreen
from oddstui.tui.event.price_rows import GridRow


class LoggedEventScreen(EventScreen):
    """Logs each paint that shows a newer message, and the loop's lag."""

    def __init__(self, event_id: int, log: PaintLog) -> None:
        super().__init__(event_id)
        self.paint_log = log
        self._painted = 0.0  # receive stamp of the newest message painted

    def on_mount(self) -> None:
        super().on_mount()
        applied = lambda: self.hub.read(lambda book: book.applied) or 0  # noqa: E731
        self.run_worker(
            self.paint_log.probe_loop_lag(applied), group="benchmark", description="lag"
        )

    def show_rows(self, rows: tuple[GridRow, ...], sides: tuple[str, ...]) -> bool:
        written = super().show_rows(rows, sides)
        beside = self.panels.beside if self.panels is not None else ()
        shown = [*rows, *(row for view in beside for row in view.rows)]  # every market shown
        if written and shown:
            newest = max(row.changed for row in shown)
            if newest > self._painted:  # a paint of ages or expired flashes shows no message
                self._painted = newest
                self.call_after_refresh(self.paint_log.painted, newest)
        return written


class NaiveEventScreen(LoggedEventScreen):
    """The naive grid: every feed message of the event rewrites its row as it arrives."""

    def compose_grid(self) -> Iterator[Widget]:  # type: ignore[override]
        yield NaiveGrid(id="price-grid")

    def set_columns(self, sides: tuple[str, ...], *, keep_rows: bool = False) -> None:
        grid = self.query_one(NaiveGrid)
        market, line, fmt = self.market, self.line, self.odds_format
        if market is None or line is None:
            return
        self.hub.read(
            lambda book: grid.attach(
                book, self.event_id, market, line, list(sides), fmt, self.paint_log
            )
        )

    def show_rows(self, rows: tuple[GridRow, ...], sides: tuple[str, ...]) -> bool:
        return False  # the naive grid writes each message itself
