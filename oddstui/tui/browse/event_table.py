"""One table of events, patched in place, that Events, Live and Watchlist each fill differently.

A subclass says which events are listed (and in what order), its columns, and what an empty or
missing list means; drawing, patching, ticking clocks, starring and opening are shared here.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.widgets import DataTable, Static

from oddstui.tui.browse.event_export import event_table_record
from oddstui.tui.browse.event_rows import event_cells, event_sort_values
from oddstui.tui.desk.state import LIVE, ChangeSet
from oddstui.tui.kit import event_fields
from oddstui.tui.kit.board_screen import BoardScreen
from oddstui.tui.kit.columns import Column
from oddstui.tui.kit.export_action import export_and_say, export_bindings
from oddstui.tui.kit.patch_table import PatchTable


class EventTableScreen(BoardScreen):
    """A table of events; `enter` opens one, `w` stars it, `o` sorts, `F` finds, `c` columns,
    `e` / `E` / `ctrl+e` exports the events listed (CSV, JSON, Parquet)."""

    BINDINGS: ClassVar[list[BindingType]] = [*export_bindings("table-export", show=False)]
    AUTO_FOCUS = "PatchTable"
    #: The table's id (its sort and columns are kept under it).
    TABLE_ID: ClassVar[str] = "events"
    #: Shown before the first answer.
    LOADING: ClassVar[str] = "Loading…"

    def columns(self) -> list[Column]:
        raise NotImplementedError

    def listed(self) -> list[int] | None:
        """The ids of the events to show, in the screen's order; None while not loaded."""
        raise NotImplementedError

    def missing(self) -> None:
        """Say why the list is not there yet (`show_missing`)."""

    def empty_text(self) -> str:
        return "Nothing to show."

    def row(self, event_id: int, now: float) -> tuple[dict[str, Text], dict[str, Any]]:
        """The cells and sort values of one listed event."""
        event = self.hub.board.events[event_id]
        shown = event_cells(
            event,
            now,
            watched=self.hub.is_watched(event_id),
            trusted=self.hub.status.trustworthy,
        )
        return shown, event_sort_values(event, now)

    # ------------------------------------------------------------------ shared drawing

    def compose_body(self) -> ComposeResult:
        table = PatchTable(id=self.TABLE_ID)
        table.set_columns(self.columns())
        yield table
        yield Static(self.LOADING, classes="empty")

    @property
    def table(self) -> PatchTable:
        return self.query_one(PatchTable)

    def redraw(self) -> None:
        ids = self.listed()
        if ids is None:
            self.missing()
            return
        table = self.table
        empty = self.query_one(".empty", Static)
        empty.display = not ids
        table.display = bool(ids)
        if not ids:
            empty.update(Text(self.empty_text()))
        now = self.hub.now()
        for event_id in ids:
            shown, sort = self.row(event_id, now)
            table.sync_row(str(event_id), shown, sort)
        keys = [str(event_id) for event_id in ids]
        table.keep_rows(keys)
        table.order_rows(keys)

    def patch(self, changes: ChangeSet) -> None:
        if changes.catalog or changes.feed:
            self.redraw()
            return
        ids = self.listed()
        table = self.table
        if ids is None or {str(event_id) for event_id in ids} != set(table.all_keys):
            self.redraw()  # an event started, ended or was starred: the rows themselves change
            return
        now = self.hub.now()
        for event_id in changes.events:
            if table.has_row(str(event_id)):
                shown, sort = self.row(event_id, now)
                table.sync_row(str(event_id), shown, sort)

    def tick(self, now: float) -> None:
        table = self.table
        for key in table.all_keys:
            event = self.hub.board.events.get(int(key))
            if event is not None and event.status == LIVE:
                played = event.clock.played_at(now) if event.clock else None
                clock = event_fields.clock_text(event, now)
                table.sync_row(key, {"clock": clock}, {"clock": played})

    def selected_event_id(self) -> int | None:
        key = self.table.highlighted_key()
        return None if key is None else int(key)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:
            self.open_event(int(event.row_key.value))

    def export_records(self) -> list[dict[str, Any]]:
        """The events the table lists, in its order (its find filter applied), as data."""
        now, events = self.hub.now(), self.hub.board.events
        return [
            event_table_record(events[int(key)], now, watched=self.hub.is_watched(int(key)))
            for key in self.table.row_keys
            if int(key) in events
        ]

    def action_export(self, fmt: str) -> None:
        name = self.heading or "events"
        export_and_say(self, name, self.export_records(), fmt, noun="events")
