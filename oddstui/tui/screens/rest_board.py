"""What the REST-fed boards share (value bets, dropping odds): inline filters, one fetch worker,
a budgeted refresh on the app's tick, and an empty line that says why nothing is shown."""

from __future__ import annotations

import time
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import HorizontalScroll
from textual.widgets import Input, Label, Static

from oddstui.api.errors import OddsApiError
from oddstui.tui.board_cells import refresh_interval
from oddstui.tui.screens.base import BoardScreen
from oddstui.tui.text import clean
from oddstui.tui.widgets.patch_table import PatchTable
from oddstui.tui.widgets.table_sync import keep_cursor, keep_only


class RestBoardScreen(BoardScreen):
    """A board refetched over REST while shown; subclasses define the columns, filters and fetch.

    | key | action |
    |---|---|
    | `f` | edit the filters; `enter` applies one, a refused value keeps the last good one |
    | `u` | fetch now |
    | `escape` | from a filter back to the table |
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f", "edit_filters", "Filters", id="board-filters"),
        Binding("u", "refresh_now", "Update", id="board-refresh"),
        Binding("escape", "leave_filters", "Back", show=False, id="board-leave-filters"),
    ]

    #: The table has the keys, not the first filter input.
    AUTO_FOCUS = "PatchTable"
    #: (key, label, fixed width) of the table's columns.
    COLUMNS: ClassVar[list[tuple[str, str, int | None]]] = []
    #: (name, label, placeholder) of the inline filter inputs.
    FILTERS: ClassVar[tuple[tuple[str, str, str], ...]] = ()
    #: Seconds between fetches while shown.
    REFRESH = 30.0
    #: What is loaded, for "Loading …" and "Could not load …".
    WHAT = "the board"

    def __init__(self) -> None:
        super().__init__()
        #: Why the last filter input was refused, or "".
        self.filter_error = ""
        #: The last failure as plain text, or "".
        self.load_error = ""
        #: Unix time of the last answer.
        self.loaded_at: float | None = None
        self._next_fetch = 0.0
        self._fetching = False

    def compose_body(self) -> ComposeResult:
        with HorizontalScroll(classes="filters"):
            for name, label, placeholder in self.FILTERS:
                yield Label(label, classes="filter-label")
                yield Input(
                    self.initial_filter(name),
                    placeholder=placeholder,
                    id=f"filter-{name}",
                    classes="filter",
                )
        yield Static("", id="filter-error", classes="filter-error")
        yield Static("", classes="summary")
        table = PatchTable(classes="board")
        table.set_columns(self.COLUMNS)
        yield table
        yield Static(f"Loading {self.WHAT}…", classes="empty")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one(PatchTable).focus()

    # ------------------------------------------------------------------ subclasses

    def initial_filter(self, name: str) -> str:
        return ""

    def apply_filter(self, name: str, text: str, submitted: bool) -> bool:
        """Parse and apply one filter (raise `ValueError` to refuse); True to refetch."""
        return False

    async def fetch(self) -> None:
        """Fetch and store the data (raise `OddsApiError` on failure)."""

    def show_rows(self) -> None:
        """Draw the table from the stored data."""

    def summary(self) -> Text:
        return Text("")

    def explain(self, error: OddsApiError) -> str:
        """The failure in plain words."""
        return clean(error)

    # ------------------------------------------------------------------ fetching

    def redraw(self) -> None:
        self.show_rows()
        self._fetch_if_due()

    def tick(self, now: float) -> None:
        self._fetch_if_due()

    def _fetch_if_due(self, force: bool = False) -> None:
        interval = refresh_interval(self.hub.api.budget, self.REFRESH)
        if interval is None or (self._fetching and not force):
            return
        if not force and time.monotonic() < self._next_fetch:
            return
        self._fetching = True
        self._next_fetch = time.monotonic() + interval
        self.run_worker(
            self._fetch(),
            group=f"board-{self.WHAT}",
            description=f"load {self.WHAT}",
            exclusive=True,
            exit_on_error=False,
        )

    async def _fetch(self) -> None:
        try:
            await self.fetch()
        except OddsApiError as error:
            self.load_error = self.explain(error)
            self.show_rows()
            return
        finally:
            self._fetching = False
            self.hub.note_budget()
        self.load_error = ""
        self.loaded_at = self.hub.now()
        if self.is_current:
            self.show_rows()
        else:
            self.missed_changes = True

    def show_table(self, wanted: bool, empty: str) -> None:
        table = self.query_one(PatchTable)
        line = self.query_one(".empty", Static)
        if self.load_error:
            wanted, empty = False, self.load_error
        elif self.loaded_at is None and not wanted:
            empty = f"Loading {self.WHAT}…"
        table.display = wanted
        line.display = not wanted
        line.update(Text(empty))
        self.query_one(".summary", Static).update(self.summary())

    # ------------------------------------------------------------------ filters

    def on_input_changed(self, event: Input.Changed) -> None:
        self._filter_input(event.input, event.value, submitted=False)
        event.stop()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self._filter_input(event.input, event.value, submitted=True):
            self.query_one(PatchTable).focus()

    def _filter_input(self, field: Input, value: str, *, submitted: bool) -> bool:
        if field.id is None or not field.id.startswith("filter-"):
            return False
        name = field.id.removeprefix("filter-")
        try:
            refetch = self.apply_filter(name, value, submitted)
        except ValueError as error:
            self.filter_error = str(error)
        else:
            self.filter_error = ""
            if refetch:
                self._fetch_if_due(force=True)
            self.show_rows()
        field.set_class(bool(self.filter_error), "-invalid")
        line = self.query_one("#filter-error", Static)
        line.update(
            Text(f"✗ {self.filter_error} (keeping the last good filter)")
            if self.filter_error
            else ""
        )
        line.display = bool(self.filter_error)
        return not self.filter_error

    def action_edit_filters(self) -> None:
        self.query(Input).first().focus()

    def action_leave_filters(self) -> None:
        if isinstance(self.focused, Input):
            self.query_one(PatchTable).focus()

    def action_refresh_now(self) -> None:
        self._fetch_if_due(force=True)

    def sync(self, rows: dict[str, dict[str, Text]], order: list[str]) -> None:
        """Show these rows in this order, keeping the cursor on its row."""
        table = self.query_one(PatchTable)
        cursor = table.highlighted_key()
        keep_only(table, rows, rows.__getitem__)
        for key, cells in rows.items():
            table.sync_row(key, cells)
        table.order_rows(order)
        keep_cursor(table, cursor)

    def event_of(self, event_id: int) -> Any:
        return self.hub.board.events.get(event_id)
