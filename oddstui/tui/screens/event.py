"""Event: PLACEHOLDER until the Event screen of the second TUI engineer replaces this file.

The contract the app relies on: `EventScreen(event_id: int)` is a `BoardScreen` pushed when the
trader presses `enter` on an event anywhere. This placeholder shows the teams, the status, the
score and the clock, so navigation can be tested end to end.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from oddstui.tui import cells
from oddstui.tui.screens.base import BoardScreen
from oddstui.tui.state import ChangeSet
from oddstui.tui.text import plain


class EventScreen(BoardScreen):
    """One event (placeholder: scoreboard only; the price grid comes with the Event screen)."""

    def __init__(self, event_id: int) -> None:
        super().__init__()
        #: The event shown.
        self.event_id = event_id

    def compose_body(self) -> ComposeResult:
        yield Static("Loading the event…", id="scoreboard")
        yield Static(
            "Markets × bookmakers grid: coming with the Event screen.", classes="coming-panel"
        )

    def on_mount(self) -> None:
        super().on_mount()
        self.run_worker(
            self.hub.load_event(self.event_id),
            group="catalog",
            description=f"event {self.event_id}",
            exit_on_error=False,
        )

    def redraw(self) -> None:
        event = self.hub.board.events.get(self.event_id)
        if event is None:
            error = self.hub.errors.get(("event", self.event_id))
            if error:
                self.query_one("#scoreboard", Static).update(
                    Text(f"Could not load event {self.event_id}: {error}")
                )
            return
        self.query_one(".heading", Static).update(
            plain(f"{event.sport_name} › {event.league_name}")
        )
        board = Text()
        board.append_text(cells.event_text(event))
        board.append("   ")
        board.append_text(cells.score_text(event, self.hub.status.trustworthy))
        board.append("   ")
        board.append_text(cells.status_text(event))
        board.append("  ")
        board.append_text(cells.clock_text(event, self.hub.now()))
        board.append("  ")
        board.append_text(cells.detail_text(event))
        board.append("\n")
        board.append_text(cells.periods_text(event))
        self.query_one("#scoreboard", Static).update(board)

    def patch(self, changes: ChangeSet) -> None:
        if self.event_id in changes.events or changes.feed or changes.catalog:
            self.redraw()

    def tick(self, now: float) -> None:
        event = self.hub.board.events.get(self.event_id)
        if event is not None and event.clock is not None and event.clock.running:
            self.redraw()

    def selected_event_id(self) -> int | None:
        return self.event_id
