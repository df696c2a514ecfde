"""Watchlist: the starred events, kept across restarts, updated live."""

from __future__ import annotations

from datetime import datetime
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Static

from oddstui.config import WatchedEvent
from oddstui.tui import cells
from oddstui.tui.screens.base import BoardScreen
from oddstui.tui.state import LIVE, ChangeSet, EventView
from oddstui.tui.text import plain
from oddstui.tui.widgets.patch_table import PatchTable

COLUMNS = [
    ("sport", "Sport", 10),
    ("event", "Event", 30),
    ("start", "Start", 12),
    ("status", "Status", 9),
    ("score", "Score", 8),
    ("clock", "Clock", 6),
    ("league", "League", 28),
]


def _start_of(watched: WatchedEvent) -> Text:
    try:
        return Text(datetime.fromisoformat(watched.start).astimezone().strftime("%a %d %H:%M"))
    except ValueError:
        return Text("–")


class WatchlistScreen(BoardScreen):
    """Starred events grouped by sport; `w` unstars, `enter` opens, `a` sets alerts."""

    heading = "Watchlist"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "alert_rule", "Alerts", id="watchlist-alerts"),
    ]

    def compose_body(self) -> ComposeResult:
        table = PatchTable(id="watchlist")
        table.set_columns(COLUMNS)
        yield table
        yield Static("No starred events yet: press w on any event to star it.", classes="empty")

    def on_mount(self) -> None:
        super().on_mount()
        self.run_worker(
            self.hub.load_watched(),
            group="catalog",
            description="watched events",
            exit_on_error=False,
        )

    def redraw(self) -> None:
        table = self.query_one(PatchTable)
        watched = self.hub.watchlist
        self.query_one(".empty", Static).display = not watched
        table.display = bool(watched)
        now = self.hub.now()
        for item in watched:
            event = self.hub.board.events.get(item.id)
            table.sync_row(str(item.id), self._cells(item, event, now))
        keys = [str(item.id) for item in sorted(watched, key=self._group)]
        table.keep_rows(keys)
        table.order_rows(keys)

    def _group(self, item: WatchedEvent) -> tuple[str, str]:
        """Grouped by sport, then by start time."""
        event = self.hub.board.events.get(item.id)
        if event is None or item.id in self.hub.watch.gone:
            return (item.sport, item.start)
        return (event.sport_name, event.start.isoformat() if event.start else "")

    def action_alert_rule(self) -> None:
        from oddstui.tui.screens.alert_rule import open_alert_rule

        open_alert_rule(self)

    def patch(self, changes: ChangeSet) -> None:
        table = self.query_one(PatchTable)
        watched = {item.id: item for item in self.hub.watchlist}
        if changes.catalog or changes.feed or set(watched) != {int(k) for k in table.row_keys}:
            self.redraw()
            return
        now = self.hub.now()
        for event_id in changes.events & self.hub.watch.ids():
            event = self.hub.board.events.get(event_id)
            table.sync_row(str(event_id), self._cells(watched[event_id], event, now))

    def tick(self, now: float) -> None:
        table = self.query_one(PatchTable)
        for key in table.row_keys:
            event = self.hub.board.events.get(int(key))
            if event is not None and event.status == LIVE and int(key) not in self.hub.watch.gone:
                table.sync_row(key, {"clock": cells.clock_text(event, now)})

    def _cells(self, item: WatchedEvent, event: EventView | None, now: float) -> dict[str, Text]:
        gone = item.id in self.hub.watch.gone
        if event is None or gone:
            # Not fetched yet (or offline), or its id names another match now: the names saved
            # when it was starred, nothing live.
            return {
                "sport": plain(item.sport),
                "event": plain(f"{item.home} v {item.away}"),
                "start": _start_of(item),
                "status": Text("gone" if gone else "?", style="dim"),
                "score": Text(""),
                "clock": Text(""),
                "league": plain(item.league),
            }
        return {
            "sport": plain(event.sport_name),
            "event": cells.event_text(event),
            "start": cells.start_text(event),
            "status": cells.status_text(event),
            "score": cells.score_text(event, self.hub.status.trustworthy),
            "clock": cells.clock_text(event, now),
            "league": plain(event.league_name),
        }

    def selected_event_id(self) -> int | None:
        key = self.query_one(PatchTable).highlighted_key()
        return None if key is None else int(key)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:
            self.open_event(int(event.row_key.value))
