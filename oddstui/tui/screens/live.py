"""Live: every live event with its ticking clock, period, score and period scores."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import DataTable, Static

from oddstui.tui import cells
from oddstui.tui.screens.base import BoardScreen
from oddstui.tui.state import LIVE, ChangeSet, EventView
from oddstui.tui.text import plain
from oddstui.tui.widgets.patch_table import PatchTable

# The columns a trader needs first come first, so 80 columns show them all.
COLUMNS = [
    ("star", "★", 1),
    ("sport", "Sport", 10),
    ("event", "Event", 26),
    ("score", "Score", 8),
    ("clock", "Clock", 6),
    ("detail", "Period", 11),
    ("periods", "Periods", 18),
    ("books", "Books", 5),
    ("league", "League", 15),
]


class LiveScreen(BoardScreen):
    """Every live event, patched in place as scores and clocks move; `enter` opens one."""

    heading = "Live"

    def compose_body(self) -> ComposeResult:
        table = PatchTable(id="live")
        table.set_columns(COLUMNS)
        yield table
        yield Static("Loading live events…", classes="empty")

    def redraw(self) -> None:
        board = self.hub.board
        table = self.query_one(PatchTable)
        empty = self.query_one(".empty", Static)
        events = board.live_events()
        if not events and not self.hub.live_loaded:
            self.show_missing(("live",), "the live events")
            return
        empty.display = not events
        table.display = bool(events)
        if not events:
            empty.update("No coverage: nothing is live right now.")
        now = self.hub.now()
        for event in events:
            table.sync_row(str(event.id), self._cells(event, now))
        keys = [str(event.id) for event in events]
        table.keep_rows(keys)
        table.order_rows(keys)

    def patch(self, changes: ChangeSet) -> None:
        if changes.catalog or changes.feed:
            self.redraw()
            return
        table = self.query_one(PatchTable)
        now = self.hub.now()
        for event_id in changes.events:
            event = self.hub.board.events.get(event_id)
            if event is None:
                continue
            shown = str(event_id) in table.rows
            if event.status == LIVE and shown:
                table.sync_row(str(event_id), self._cells(event, now))
            elif event.status == LIVE or shown:
                # Kick-off or final whistle changes the rows themselves.
                self.redraw()
                return

    def tick(self, now: float) -> None:
        table = self.query_one(PatchTable)
        for key in table.row_keys:
            event = self.hub.board.events.get(int(key))
            if event is not None:
                table.sync_row(key, {"clock": cells.clock_text(event, now)})

    def _cells(self, event: EventView, now: float) -> dict[str, Text]:
        return {
            "star": cells.star_text(self.hub.is_watched(event.id)),
            "sport": plain(event.sport_name),
            "event": cells.event_text(event),
            "score": cells.score_text(event, self.hub.status.trustworthy),
            "clock": cells.clock_text(event, now),
            "detail": cells.detail_text(event),
            "periods": cells.periods_text(event),
            "books": cells.books_text(event),
            "league": plain(event.league_name),
        }

    def selected_event_id(self) -> int | None:
        key = self.query_one(PatchTable).highlighted_key()
        return None if key is None else int(key)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:
            self.open_event(int(event.row_key.value))
