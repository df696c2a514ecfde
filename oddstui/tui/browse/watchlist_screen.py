"""Watchlist: the starred events, kept across restarts, updated live."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType

from oddstui.config import WatchedEvent
from oddstui.tui.browse.event_rows import WATCHLIST_COLUMNS
from oddstui.tui.browse.event_table import EventTableScreen
from oddstui.tui.desk.state import LIVE
from oddstui.tui.kit import event_fields
from oddstui.tui.kit.columns import Column
from oddstui.tui.messages import AlertRulesWanted
from oddstui.tui.text import plain


def _start_of(watched: WatchedEvent) -> datetime | None:
    try:
        return datetime.fromisoformat(watched.start).astimezone()
    except ValueError:
        return None


class WatchlistScreen(EventTableScreen):
    """Starred events grouped by sport; `w` unstars, `enter` opens, `a` sets alerts."""

    heading = "Watchlist"
    TABLE_ID = "watchlist"
    LOADING = "No starred events yet: press w on any event to star it."
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "alert_rule", "Alerts", id="watchlist-alerts"),
    ]

    def columns(self) -> list[Column]:
        return WATCHLIST_COLUMNS

    def on_mount(self) -> None:
        super().on_mount()
        self.run_worker(
            self.hub.load_watched(),
            group="catalog",
            description="watched events",
            exit_on_error=False,
        )

    def listed(self) -> list[int] | None:
        return [item.id for item in sorted(self.hub.watchlist, key=self._group)]

    def empty_text(self) -> str:
        return self.LOADING

    def _group(self, item: WatchedEvent) -> tuple[str, str]:
        """Grouped by sport, then by start time."""
        event = self.hub.board.events.get(item.id)
        if event is None or item.id in self.hub.watch.gone:
            return (item.sport, item.start)
        return (event.sport_name, event.start.isoformat() if event.start else "")

    def row(self, event_id: int, now: float) -> tuple[dict[str, Text], dict[str, Any]]:
        gone = event_id in self.hub.watch.gone
        if event_id in self.hub.board.events and not gone:
            return super().row(event_id, now)
        # Not fetched yet (or offline), or its id names another match now: the names saved
        # when it was starred, nothing live.
        item = next(item for item in self.hub.watchlist if item.id == event_id)
        start = _start_of(item)
        shown = {
            "sport": plain(item.sport),
            "event": plain(f"{item.home} v {item.away}"),
            "start": Text(start.strftime("%a %d %H:%M") if start else "–"),
            "status": Text("gone" if gone else "?", style="dim"),
            "league": plain(item.league),
        }
        return shown, {"start": start.timestamp() if start else None}

    def tick(self, now: float) -> None:
        gone = {str(event_id) for event_id in self.hub.watch.gone}
        if not gone:
            super().tick(now)
            return
        table = self.table
        for key in table.all_keys:
            event = self.hub.board.events.get(int(key))
            if key not in gone and event is not None and event.status == LIVE:
                played = event.clock.played_at(now) if event.clock else None
                clock = event_fields.clock_text(event, now)
                table.sync_row(key, {"clock": clock}, {"clock": played})

    def action_alert_rule(self) -> None:
        event_id = self.selected_event_id()
        if event_id is None:
            self.notify("Highlight a starred event to set its alerts.", severity="warning")
            return
        self.post_message(AlertRulesWanted(event_id))
