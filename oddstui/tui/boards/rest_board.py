"""The board base: a trading board refetched over REST while shown (arbitrage, value bets,
dropping odds): inline filters, one fetch worker, a budgeted refresh on the app's tick, an
empty line that says why nothing is shown, and rows placed by `TradingBoard` (gone rows kept a
while, dimmed, below the live ones)."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import HorizontalScroll
from textual.widgets import DataTable, Input, Label, Static

from oddstui.api.errors import Forbidden, OddsApiError
from oddstui.book.state import finished
from oddstui.tui.boards.board_cells import gone_cells, marked, shown_counts
from oddstui.tui.boards.filter_bar import FilterBar
from oddstui.tui.boards.order import GoneRows, Rank
from oddstui.tui.boards.trading_board import TradingBoard
from oddstui.tui.desk.rest_polls import BOARD
from oddstui.tui.desk.state import EventView
from oddstui.tui.kit.columns import Column
from oddstui.tui.kit.patch_table import PatchTable, ScreenOrderedTable
from oddstui.tui.kit.table_sync import keep_only
from oddstui.tui.text import clean


@dataclass(slots=True)
class BoardRow:
    """One row as a REST board hands it to `place`."""

    cells: dict[str, Text]
    rank: Rank
    suspect: str = ""
    """Why the row is suspect, or ""."""
    event_id: int | None = None
    """The row's match: its gone row leaves when the match ends."""


class RestBoardScreen(TradingBoard, FilterBar):
    """A board refetched over REST while shown; subclasses define the columns, filters and fetch.

    | key | action |
    |---|---|
    | `f` | edit the filters; a refused value keeps the last good one |
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
    COLUMNS: ClassVar[Sequence[Column | tuple[str, str, int | None]]] = []
    #: The column whose cell carries the suspect mark, and the one that says "gone 12s".
    MARK_COLUMN: ClassVar[str] = ""
    GONE_COLUMN: ClassVar[str] = ""
    #: (name, label, placeholder) of the inline filter inputs.
    FILTERS: ClassVar[tuple[tuple[str, str, str], ...]] = ()
    #: Seconds between fetches while shown, the budget permitting (the hub's `board_interval`:
    #: the one pacing rule; without a feed the board in front gets half of what is left).
    REFRESH: ClassVar[float] = 30.0
    #: A failed fetch hides the rows (False: they stay, the summary says why).
    ERROR_HIDES_ROWS: ClassVar[bool] = True
    #: What is loaded, for "Loading …" and "Could not load …".
    WHAT = "the board"

    def __init__(self) -> None:
        super().__init__()
        #: The last failure as plain text, or "".
        self.load_error = ""
        #: Unix time of the last answer.
        self.loaded_at: float | None = None
        #: Rows the last answers dropped, shown dimmed until the next fetch.
        self.gone: GoneRows[BoardRow] = GoneRows(grace=self.REFRESH)
        self._fresh_answer = False
        self._next_fetch = 0.0
        self._fetching = False
        #: The service answered 403 (not in the plan): no more periodic fetches, only `u`.
        self.refused = False
        self._summary_shown = Text()
        self._detail_shown = Text()
        #: Rows the find filter (`F`) hid at the last draw.
        self.not_found = 0
        #: Rows of the last answer the board's own filters hid at the last draw.
        self.filtered_out = 0
        #: Rows left out of this draw because their match has ended (see `ended`).
        self._ended_keys: set[str] = set()
        #: (answer or failure, when it came) that arrived while paused: taken at resume.
        self._held_answer: tuple[Any, float] | None = None
        #: The rows of the last draw before a pause, and its time: a paused board shows these.
        self._placed: dict[str, BoardRow] = {}
        self._placed_at = 0.0

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
        yield self.make_table()
        yield Static(f"Loading {self.WHAT}…", classes="empty")
        yield Static("", classes="detail")

    def make_table(self) -> PatchTable:
        table = ScreenOrderedTable(classes="board")
        table.set_columns(self.COLUMNS)
        return table

    def on_mount(self) -> None:
        super().on_mount()
        self._show_heading()
        self.query_one(PatchTable).focus()

    # ------------------------------------------------------------------ subclasses

    def initial_filter(self, name: str) -> str:
        return ""

    def apply_filter(self, name: str, text: str, submitted: bool) -> bool:
        """Parse and apply one filter (raise `ValueError` to refuse); True to refetch."""
        return False

    async def fetch(self) -> Any:
        """Fetch the data and return it, for `take_answer` (raise `OddsApiError` on failure)."""

    def take_answer(self, answer: Any, at: float) -> None:
        """Store an answer of `fetch` that came at `at` (later, if it came while paused)."""

    def show_rows(self) -> None:
        """Draw the table from the stored data."""

    def summary(self) -> Text:
        return Text("")

    def explain(self, error: OddsApiError) -> str:
        """The failure in plain words."""
        return clean(error)

    def detail(self, key: str) -> Text | None:
        """The highlighted row in full, for the line under the table: every column's label and
        whole text, the ones the terminal's width hid too."""
        table = self.query_one(PatchTable)
        text = Text()
        for column in table.specs:
            value = table.cell_text(key, column.key).strip()
            if value not in ("", "–", "—", "-"):  # nothing to say
                text.append(" · " if text else "")
                text.append(f"{column.label} ", style="dim")
                text.append(value)
        return text

    # ------------------------------------------------------------------ fetching

    def redraw(self) -> None:
        self.take_held_answer()
        self.show_rows()
        self._fetch_if_due()

    def tick(self, now: float) -> None:
        self._fetch_if_due()
        if self.gone.sweep(self.hub.now(), keep=self.held_key()):
            self.show_rows()

    def _fetch_if_due(self, force: bool = False) -> None:
        interval = self.hub.board_interval(self.REFRESH, self.hub.api.budget)
        if self.is_current:
            self.hub.set_front(BOARD, interval=interval)
        if interval is None or (self._fetching and not force) or self.paused:
            return
        if self.refused and not force:  # each refused ask would still cost a request
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
        answer: Any
        try:
            answer = await self.fetch()
        except OddsApiError as error:
            answer = error
        finally:
            self._fetching = False
            self.hub.note_budget()
        if self.hold():  # one under way when the trader paused: the rows stay as shown
            self._held_answer = (answer, self.hub.now())
            return
        if not self._take(answer, self.hub.now()) or self.is_current:
            self.show_rows()
        else:
            self.missed_changes = True

    def _take(self, answer: Any, at: float) -> bool:
        """Take in an answer (True) or a failure (False)."""
        if isinstance(answer, OddsApiError):
            self.refused = isinstance(answer, Forbidden)
            self.load_error = self.explain(answer)
            return False
        self.take_answer(answer, at)
        self.load_error = ""
        self.refused = False
        self.loaded_at = at
        self._fresh_answer = True
        return True

    def take_held_answer(self) -> None:
        """The answer that came while paused, once the board runs again."""
        if self._held_answer is not None and not self.paused:
            held, self._held_answer = self._held_answer, None
            self._take(*held)

    def fetch_paused(self) -> bool:
        """True when the hourly budget is nearly spent and the board no longer refetches."""
        return self.hub.board_interval(self.REFRESH, self.hub.api.budget) is None

    def new_question(self) -> None:
        """Another bookmaker, page or filter: rows missing from the next answer are not "gone"."""
        self.gone.clear()
        self._fresh_answer = False
        self._held_answer = None  # an answer to the old question

    # ------------------------------------------------------------------ drawing

    def place(self, rows: dict[str, BoardRow]) -> tuple[int, int]:
        """Show `rows`, the recently gone ones below them; returns (live, gone) shown. Paused,
        the rows of the last draw before the pause instead, whatever the data says now (the
        trader's sort, find and ⚠ toggle still act on them)."""
        if self.hold():
            rows, now = self._placed, self._placed_at
            self._ended_keys.clear()
        else:
            self._placed = rows
            self._placed_at = now = self.hub.now()
            self._forget_gone(rows, now)
        # The board's own filters judge the gone rows too, now: a row an answer dropped is
        # "gone" whatever the filters say, and one they hide stays hidden, gone or live.
        hidden = self.hidden_by_filters({**{k: r for k, (r, _) in self.gone.rows.items()}, **rows})
        self.filtered_out = sum(1 for key in rows if key in hidden)
        shown: dict[str, BoardRow] = {}
        self.suspects_hidden = 0
        self.suspects = {key: row.suspect for key, row in rows.items() if key not in hidden}
        table = self.query_one(PatchTable)
        for key, row in rows.items():
            if key in hidden:
                continue
            if row.suspect and self.hide_suspects:
                # Counted only when the find would show it: the count is of rows h brings back.
                self.suspects_hidden += table.would_pass(row.cells)
                continue
            cells = marked(row.cells, self.MARK_COLUMN) if row.suspect else row.cells
            shown[key] = BoardRow(cells, row.rank, row.suspect)
        cap = self.row_cap()
        for key, (row, went) in sorted(self.gone.rows.items(), key=lambda item: -item[1][1]):
            if cap is not None and len(shown) >= cap:
                break  # a page of 50 never shows more than 50 rows
            if key not in shown and key not in hidden:
                cells = gone_cells(row.cells, self.GONE_COLUMN, now - went)
                shown[key] = BoardRow(cells, Rank(row.rank.profit, gone=went))
        before = (table.row_keys, table.highlighted_key())
        keep_only(table, shown, lambda key: shown[key].cells)
        for key, row in shown.items():
            table.sync_row(key, row.cells)
        ranks = {key: row.rank for key, row in shown.items()}
        self.arrange_table(table, ranks, force=True, before=before)
        found = set(self.found(shown))  # the counts count what the find filter lets through
        self.not_found = len(shown) - len(found)
        live_found = sum(1 for key in found if shown[key].rank.gone is None)
        return live_found, len(found) - live_found

    def _forget_gone(self, rows: dict[str, BoardRow], now: float) -> None:
        """The gone rows after this draw: the fresh answer's dropped rows join, the rows of
        matches that ended leave."""
        if self._fresh_answer:
            self._fresh_answer = False
            self.gone.update(rows, now, keep=self.held_key())
        for key in self._ended_keys:
            self.gone.rows.pop(key, None)
        self._ended_keys.clear()
        for key, (row, _) in list(self.gone.rows.items()):
            if row.event_id is not None and self.match_ended(row.event_id):
                del self.gone.rows[key]  # a row gone before its match ended

    def hidden_by_filters(self, rows: Mapping[str, BoardRow]) -> set[str]:
        """The keys among `rows` (the answer's and the gone ones) that the board's own filters
        hide at this draw: the ones applied here, not asked of the service. None by default."""
        return set()

    def held_key(self) -> str | None:
        """The row the trader moved to: gone, it stays under the cursor until they move."""
        return self.query_one(PatchTable).highlighted_key() if self.holding else None

    def row_cap(self) -> int | None:
        """The most rows the board shows, gone ones included (None: no cap)."""
        return None

    def show_table(self, wanted: bool, empty: str) -> None:
        table = self.query_one(PatchTable)
        line = self.query_one(".empty", Static)
        if self.load_error and (self.ERROR_HIDES_ROWS or not wanted):
            wanted, empty = False, self.load_error
        elif self.loaded_at is None and not wanted:
            empty = f"Loading {self.WHAT}…"
        table.display = wanted
        line.display = not wanted
        if not wanted:
            line.update(Text(empty))
        summary = self.summary()
        if summary != self._summary_shown:  # an unchanged line is not repainted
            self._summary_shown = summary
            self.query_one(".summary", Static).update(summary)
        self.show_detail()

    def show_detail(self) -> None:
        """The line under the table: the highlighted row in full, however narrow the columns."""
        table = self.query_one(PatchTable)
        key = table.highlighted_key() if table.display else None
        detail = self.detail(key) if key is not None else None
        line = self.query_one(".detail", Static)
        line.display = detail is not None
        if detail is not None and detail != self._detail_shown:
            self._detail_shown = detail
            line.update(detail)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_detail()

    def counts(self, live: int, gone: int, parts: str = "") -> Text:
        """`12 shown: 10 live (parts) + 2 gone · 3 ⚠ hidden · by profit`: the numbers add up."""
        text = shown_counts(live, gone, self.suspects_hidden, parts)
        if self.not_found:
            text.append(f" · {self.not_found} not found")
        text.append_text(self.order_words())
        return text

    def action_refresh_now(self) -> None:
        self._fetch_if_due(force=True)

    def event_of(self, event_id: int) -> EventView | None:
        return self.hub.board.events.get(event_id)

    def match_ended(self, event_id: int) -> bool:
        """The desk knows the match has ended (settled or cancelled): nothing on it trades."""
        event = self.hub.board.events.get(event_id)
        return event is not None and finished(event.status)

    def ended_row(self, event_id: int, key: str) -> bool:
        """Row `key` is on a match that ended: it leaves the board at the change set that says
        so (every change set redraws a REST board), and is not kept as a dimmed gone row."""
        if not self.match_ended(event_id):
            return False
        self._ended_keys.add(key)
        return True
