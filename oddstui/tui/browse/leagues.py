"""Leagues: the leagues of one sport, plus a row for all of its events."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import DataTable, Static

from oddstui.tui.desk.state import ChangeSet
from oddstui.tui.kit.board_screen import BoardScreen
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.text import clean, plain

ALL_LEAGUES = "*all*"


class LeaguesScreen(BoardScreen):
    """One sport's leagues; `enter` opens a league's events (or all of them)."""

    def __init__(self, sport: str) -> None:
        super().__init__()
        #: The sport's slug.
        self.sport = sport

    @property
    def sport_name(self) -> str:
        view = self.hub.board.sports.get(self.sport)
        return view.name if view else self.sport

    def compose_body(self) -> ComposeResult:
        table = PatchTable(id="leagues")
        table.set_columns([("league", "League", 44), ("events", "Events", 7)])
        yield table
        yield Static("Loading leagues…", classes="empty")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one(".heading", Static).update(plain(f"Sports › {self.sport_name}"))
        self.run_worker(
            self.hub.load_leagues(self.sport),
            group="catalog",
            description=f"leagues of {self.sport}",
            exit_on_error=False,
        )

    def redraw(self) -> None:
        table = self.query_one(PatchTable)
        leagues = self.hub.board.leagues.get(self.sport)
        empty = self.query_one(".empty", Static)
        if leagues is None:
            self.show_missing(("leagues", self.sport), "the leagues")
            return
        if not leagues:
            empty.update(
                Text(clean(f"No coverage: the service lists no leagues for {self.sport_name}."))
            )
            empty.display = True
            table.display = False
            return
        empty.display = False
        table.display = True
        total = sum(league.events or 0 for league in leagues)
        table.sync_row(
            ALL_LEAGUES,
            {
                "league": Text(f"All {self.sport_name} leagues", style="italic"),
                "events": Text(str(total), justify="right"),
            },
        )
        for league in leagues:
            count = "…" if league.events is None else str(league.events)
            table.sync_row(
                league.slug,
                {"league": plain(league.name), "events": Text(count, justify="right")},
            )
        table.keep_rows([ALL_LEAGUES, *(league.slug for league in leagues)])

    def patch(self, changes: ChangeSet) -> None:
        if changes.catalog:
            self.redraw()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        from oddstui.tui.browse.events import EventsScreen

        key = event.row_key.value
        if key is None:
            return
        league = None if key == ALL_LEAGUES else key
        self.app.push_screen(EventsScreen(self.sport, league))
