"""Stale lines (`9`): the soft prices still on the old side of a sharp move — the book, the
line and the side the move left behind, its price and fair price and the EV between them, the
move it has not followed and how long ago. Shown as information, not as a bet button: `enter`
opens the event.

By default only the rows priced above the fair price are shown: a book behind a move whose
margin keeps its price at or under the fair one has nothing to take (in play most such rows
are), so they are counted in the summary and shown, dimmed, with `a`."""

from __future__ import annotations

import time
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Static

from oddstui.book.suspect import DEFAULT_SUSPECT_PROFIT
from oddstui.tui.desk.state import ChangeSet
from oddstui.tui.intel.stale_rows import (
    EDGE_STYLE,
    STALE_COLUMNS,
    StaleRow,
    Teams,
    row_suspicion,
    stale_cells,
    stale_records,
    stale_rows,
    stale_sort,
)
from oddstui.tui.kit.board_screen import BoardScreen
from oddstui.tui.kit.export_action import export_and_say, export_bindings
from oddstui.tui.kit.marks import SUSPECT_MARK
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.kit.prices import odds_format


def _edge(row: StaleRow, epsilon: float) -> bool:
    return row.ev is not None and row.ev > epsilon


def _under_fair(row: StaleRow) -> bool:
    """Priced at or under the fair price: nothing to take (a row without a fair price is not
    known to be)."""
    return row.ev is not None and row.ev <= 0.0


#: Seconds between two redraws while prices move (the ages tick with the clock anyway).
REDRAW_EVERY = 1.0


class StaleLinesScreen(BoardScreen):
    """| key | action |
    |---|---|
    | `enter` | open the line's event |
    | `o` / `O` | sort by the next column / reverse |
    | `F` | find: filter the rows by text |
    | `v` | only the rows with EV above ε / back to those above the fair price |
    | `a` | also the rows at or under the fair price (dimmed) / back to those above it |
    | `e` / `E` / `ctrl+e` | export the rows shown to CSV / JSON / Parquet in the working folder |
    """

    heading = "Stale lines"
    AUTO_FOCUS = "#stale"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("v", "toggle_edges", "Edges only", id="stale-edges"),
        Binding("a", "toggle_all", "All rows", id="stale-all"),
        *export_bindings("stale-export"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.rows: dict[str, StaleRow] = {}
        """The rows shown, in the board's order."""
        self.edges_only = False
        """Show only the rows with EV above ε (`v`)."""
        self.all_rows = False
        """Show the rows at or under the fair price too (`a`)."""
        self._drawn = float("-inf")

    def compose_body(self) -> ComposeResult:
        yield Static("", classes="summary", id="stale-summary")
        table = PatchTable(id="stale")
        table.set_columns(STALE_COLUMNS)
        yield table

    def _teams(self) -> dict[int, Teams]:
        events = self.hub.board.events
        return {event_id: (view.home, view.away) for event_id, view in events.items()}

    @property
    def suspect_profit(self) -> float:
        settings = getattr(self.app, "settings", None)
        return float(getattr(settings, "suspect_profit", DEFAULT_SUSPECT_PROFIT))

    def redraw(self) -> None:
        engine = self.hub.intel.engine
        epsilon = engine.settings.epsilon
        every = stale_rows(engine)
        if self.edges_only:
            rows = [row for row in every if _edge(row, epsilon)]
        else:
            rows = [row for row in every if self.all_rows or not _under_fair(row)]
        teams = self._teams()
        now = self.hub.now()
        table = self.query_one("#stale", PatchTable)
        self.rows = {row.key: row for row in rows}
        threshold = self.suspect_profit
        fmt = odds_format(self.app)
        for row in rows:
            shown = teams.get(row.event_id, ("", ""))
            cells = stale_cells(row, shown, now, epsilon, threshold, fmt)
            table.sync_row(row.key, cells, sort=stale_sort(row))
        table.keep_rows(self.rows)
        table.order_rows(list(self.rows))  # oldest move first: rows stay where they are
        edges = sum(1 for row in every if _edge(row, epsilon))
        suspects = sum(1 for row in every if row_suspicion(row, threshold))
        under = sum(1 for row in every if _under_fair(row))
        summary = Text(f"{len(every)} behind a sharp move ({under} at or under fair"
                       f"{'' if self.all_rows or self.edges_only else ', hidden: a'}) · ")
        summary.append(f"{edges} with EV above {epsilon * 100:g}%", EDGE_STYLE)
        summary.append(f" · {SUSPECT_MARK} {suspects} suspect (EV above {threshold:g}%)")
        if self.edges_only:
            summary.append(" · shown: only those (v)", "dim")
        self.query_one("#stale-summary", Static).update(summary)
        self._drawn = time.monotonic()

    def patch(self, changes: ChangeSet) -> None:
        if changes.prices and time.monotonic() - self._drawn >= REDRAW_EVERY:
            self.redraw()

    def tick(self, now: float) -> None:
        self.redraw()

    def selected_event_id(self) -> int | None:
        key = self.query_one("#stale", PatchTable).highlighted_key()
        row = None if key is None else self.rows.get(key)
        return None if row is None else row.event_id

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        event_id = self.selected_event_id()
        if event_id is not None:
            self.open_event(event_id)

    def action_toggle_edges(self) -> None:
        self.edges_only = not self.edges_only
        self.all_rows = False
        self.redraw()

    def action_toggle_all(self) -> None:
        self.all_rows = not self.all_rows
        self.edges_only = False
        self.redraw()

    def action_export(self, fmt: str) -> None:
        self.redraw()
        rows = list(self.rows.values())
        records = stale_records(rows, self._teams(), self.hub.now(), self.suspect_profit)
        export_and_say(self, self.heading, records, fmt, noun="stale lines")
