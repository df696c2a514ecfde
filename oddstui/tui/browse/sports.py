"""Sports: the 34 sports with their live and upcoming counts."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import DataTable, Static

from oddstui.tui.desk.state import ChangeSet, SportView
from oddstui.tui.kit.board_screen import BoardScreen
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.text import plain


def _count(value: int | None) -> Text:
    return Text("…" if value is None else str(value), justify="right")


class SportsScreen(BoardScreen):
    """Every sport; `enter` opens its leagues."""

    heading = "Sports"

    def compose_body(self) -> ComposeResult:
        table = PatchTable(id="sports")
        table.set_columns(
            [("sport", "Sport", 24), ("live", "Live", 6), ("upcoming", "Upcoming", 9)]
        )
        yield table
        yield Static("Loading the sports…", classes="empty")

    def on_mount(self) -> None:
        super().on_mount()
        # The counts come from each sport's leagues: asked for when this screen is first shown
        # (the hub keeps them for the day), not at start, where the Live screen comes first.
        self.run_worker(
            self.hub.load_sport_counts(),
            group="catalog",
            description="the sports' counts",
            exit_on_error=False,
        )

    def redraw(self) -> None:
        table = self.query_one(PatchTable)
        sports = sorted(self.hub.board.sports.values(), key=lambda sport: sport.name.lower())
        if not sports:
            self.show_missing(("sports",), "the sports")
            return
        self.query_one(".empty", Static).display = False
        table.display = True
        for sport in sports:
            table.sync_row(sport.slug, self._cells(sport))
        table.keep_rows(sport.slug for sport in sports)
        table.order_rows([sport.slug for sport in sports])

    def patch(self, changes: ChangeSet) -> None:
        if changes.catalog:
            self.redraw()

    @staticmethod
    def _cells(sport: SportView) -> dict[str, Text]:
        live = _count(sport.live)
        if sport.live:
            live.stylize("bold")
        return {"sport": plain(sport.name), "live": live, "upcoming": _count(sport.upcoming)}

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        slug = event.row_key.value
        if slug is not None:
            from oddstui.tui.browse.leagues import LeaguesScreen

            self.app.push_screen(LeaguesScreen(slug))
