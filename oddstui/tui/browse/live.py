"""Live: every live event with its ticking clock, period, score and period scores."""

from __future__ import annotations

from oddstui.tui.browse.event_rows import LIVE_COLUMNS
from oddstui.tui.browse.event_table import EventTableScreen
from oddstui.tui.kit.columns import Column


class LiveScreen(EventTableScreen):
    """Every live event, patched in place as scores and clocks move; `enter` opens one."""

    heading = "Live"
    TABLE_ID = "live"
    LOADING = "Loading live events…"

    def columns(self) -> list[Column]:
        return LIVE_COLUMNS

    def listed(self) -> list[int] | None:
        events = self.hub.board.live_events()
        if not events and not self.hub.live_loaded:
            return None
        return [event.id for event in events]

    def missing(self) -> None:
        self.show_missing(("live",), "the live events")

    def empty_text(self) -> str:
        return "No coverage: nothing is live right now."
