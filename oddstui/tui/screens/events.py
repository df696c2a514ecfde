"""Events: the events of a league (or of a whole sport), live ones updating in place."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import DataTable, Static

from oddstui.tui import cells
from oddstui.tui.screens.base import BoardScreen
from oddstui.tui.state import LIVE, ChangeSet, EventView
from oddstui.tui.text import plain
from oddstui.tui.widgets.patch_table import PatchTable

COLUMNS = [
    ("star", "★", 1),
    ("start", "Start", 12),
    ("event", "Event", 23),
    ("status", "Status", 8),
    ("score", "Score", 8),
    ("clock", "Clock", 6),
    ("books", "Books", 5),
]


class EventsScreen(BoardScreen):
    """A league's events by start time; `enter` opens one, `w` stars it."""

    def __init__(self, sport: str, league: str | None) -> None:
        super().__init__()
        #: The sport's slug.
        self.sport = sport
        #: The league's slug, or None for every league of the sport.
        self.league = league

    @property
    def listing_key(self) -> tuple[str, str]:
        return (self.sport, self.league or "")

    def compose_body(self) -> ComposeResult:
        table = PatchTable(id="events")
        table.set_columns(COLUMNS)
        yield table
        yield Static("Loading events…", classes="empty")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one(".heading", Static).update(self._heading())
        self.run_worker(
            self.hub.load_events(self.sport, self.league),
            group="catalog",
            description=f"events of {self.sport}/{self.league or 'all'}",
            exit_on_error=False,
        )

    def _heading(self) -> Text:
        board = self.hub.board
        sport = board.sports.get(self.sport)
        parts = ["Sports", sport.name if sport else self.sport]
        if self.league:
            names = {league.slug: league.name for league in board.leagues.get(self.sport, [])}
            parts.append(names.get(self.league, self.league))
        else:
            parts.append("all leagues")
        return plain(" › ".join(parts))

    def _events(self) -> list[EventView] | None:
        ids = self.hub.board.listings.get(self.listing_key)
        if ids is None:
            return None
        events = [self.hub.board.events[i] for i in ids if i in self.hub.board.events]
        return sorted(events, key=_listing_order)

    def redraw(self) -> None:
        events = self._events()
        if events is None:
            self.show_missing(("events", self.listing_key), "the events")
            return
        table = self.query_one(PatchTable)
        empty = self.query_one(".empty", Static)
        empty.display = not events
        table.display = bool(events)
        if not events:
            empty.update("No coverage: the service lists no upcoming or live events here.")
            return
        now = self.hub.now()
        for event in events:
            table.sync_row(str(event.id), self._cells(event, now))
        keys = [str(event.id) for event in events]
        table.keep_rows(keys)
        table.order_rows(keys)

    def patch(self, changes: ChangeSet) -> None:
        if changes.catalog:
            self.redraw()
            return
        table = self.query_one(PatchTable)
        now = self.hub.now()
        for event_id in changes.events:
            key = str(event_id)
            event = self.hub.board.events.get(event_id)
            if event is not None and key in table.rows:
                table.sync_row(key, self._cells(event, now))

    def tick(self, now: float) -> None:
        table = self.query_one(PatchTable)
        for key in table.row_keys:
            event = self.hub.board.events.get(int(key))
            if event is not None and event.status == LIVE:
                table.sync_row(key, {"clock": cells.clock_text(event, now)})

    def _cells(self, event: EventView, now: float) -> dict[str, Text]:
        return {
            "star": cells.star_text(self.hub.is_watched(event.id)),
            "start": cells.start_text(event),
            "event": cells.event_text(event),
            "status": cells.status_text(event),
            "score": cells.score_text(event, self.hub.status.trustworthy),
            "clock": cells.clock_text(event, now),
            "books": cells.books_text(event),
        }

    def selected_event_id(self) -> int | None:
        key = self.query_one(PatchTable).highlighted_key()
        return None if key is None else int(key)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:
            self.open_event(int(event.row_key.value))


def _listing_order(event: EventView) -> tuple[bool, float, int]:
    return (event.status != LIVE, event.start.timestamp() if event.start else 0.0, event.id)
