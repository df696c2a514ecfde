"""Events: the events of a league (or of a whole sport), live ones updating in place."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from oddstui.tui.browse.event_rows import LEAGUE_EVENTS_COLUMNS, SPORT_EVENTS_COLUMNS
from oddstui.tui.browse.event_table import EventTableScreen
from oddstui.tui.desk.state import LIVE, EventView
from oddstui.tui.kit.columns import Column
from oddstui.tui.text import plain


class EventsScreen(EventTableScreen):
    """A league's events, live ones first, then by start time; `enter` opens one."""

    TABLE_ID = "events"
    LOADING = "Loading events…"

    def __init__(self, sport: str, league: str | None) -> None:
        super().__init__()
        #: The sport's slug.
        self.sport = sport
        #: The league's slug, or None for every league of the sport.
        self.league = league

    @property
    def listing_key(self) -> tuple[str, str]:
        return (self.sport, self.league or "")

    def columns(self) -> list[Column]:
        return LEAGUE_EVENTS_COLUMNS if self.league else SPORT_EVENTS_COLUMNS

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

    def listed(self) -> list[int] | None:
        ids = self.hub.board.listings.get(self.listing_key)
        if ids is None:
            return None
        events = [self.hub.board.events[i] for i in ids if i in self.hub.board.events]
        return [event.id for event in sorted(events, key=_listing_order)]

    def missing(self) -> None:
        self.show_missing(("events", self.listing_key), "the events")

    def empty_text(self) -> str:
        return "No coverage: the service lists no upcoming or live events here."


def _listing_order(event: EventView) -> tuple[bool, float, int]:
    return (event.status != LIVE, event.start.timestamp() if event.start else 0.0, event.id)
