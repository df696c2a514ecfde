"""Arbitrage (`4`): the service's arbitrages merged with the ones found in the feed's book.

The service's list is refetched on the app's one-second tick when due (every `REFRESH` seconds,
slower when the hourly budget runs low, never while the screen is hidden). Local detection runs
on the markets each change set touched. Rows are sorted by profit, stably: the cursor stays on
its arbitrage.
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import HorizontalScroll
from textual.timer import Timer
from textual.widgets import DataTable, Input, Label, Static

from oddstui.api.errors import OddsApiError
from oddstui.book.arbitrage import PROFIT_DEFINITION
from oddstui.tui import cells
from oddstui.tui.arb_rows import LOCAL, SVC, ArbRow, ArbRows, ordered_keys
from oddstui.tui.board_cells import (
    VANISHED_STYLE,
    age_text,
    book_clock,
    odds_format,
    percent_text,
    price_text,
    reading_book,
    refresh_interval,
)
from oddstui.tui.board_filters import ArbFilter
from oddstui.tui.screens.base import BoardScreen
from oddstui.tui.screens.stake_ticket import StakeTicketModal
from oddstui.tui.state import ChangeSet
from oddstui.tui.text import clean, plain
from oddstui.tui.ticket import StakePlan, TicketLeg
from oddstui.tui.widgets.board_table import BoardTable
from oddstui.tui.widgets.patch_table import PatchTable
from oddstui.tui.widgets.table_sync import keep_cursor, keep_only

#: Seconds between two fetches of /arbitrage-bets while the board is shown.
REFRESH = 15.0
#: Below this share of the hourly budget left, fetch four times less often.
LOW_BUDGET_SHARE = 0.2
#: Below this many requests left, stop fetching (the feed's own detection goes on).
RESERVE = 50
#: Seconds of quiet typing before a new filter redraws the board.
FILTER_PAUSE = 0.25
#: Leg ages under a minute are shown in steps of this many seconds.
AGE_STEP = 5
#: Seconds between two sorts by profit while prices move.
RESORT_EVERY = 3.0
#: Items asked of the service per fetch (its maximum).
SERVICE_LIMIT = 500

COLUMNS = [
    ("source", "Src", 5),
    ("profit", "Profit", 8),
    ("event", "Event", 24),
    ("market", "Market", 16),
    ("legs", "Legs", 40),
    ("age", "Age", 4),
    ("score", "Score", 5),
    ("clock", "Clock", 5),
    ("sport", "Sport", 12),
]
FILTERS = (
    ("min_profit", "min %", "any"),
    ("sports", "sports", "all"),
    ("bookmakers", "books", "any"),
    ("max_age", "max age s", "any"),
)


class ArbitrageScreen(BoardScreen):
    """Live arbitrages, by profit; `enter` opens the stake ticket.

    | key | action |
    |---|---|
    | `enter` | stake ticket for the highlighted arbitrage |
    | `f` | edit the filters (min profit, sports, bookmakers, max leg age) |
    | `u` | fetch the service's arbitrages now |
    | `escape` | from a filter back to the table |
    """

    heading = "Arbitrage"
    #: The table has the keys, not the first filter input.
    AUTO_FOCUS = "PatchTable"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f", "edit_filters", "Filters", id="arb-filters"),
        Binding("u", "refresh_service", "Update", id="arb-refresh"),
        Binding("escape", "leave_filters", "Back", show=False, id="arb-leave-filters"),
    ]

    def __init__(self) -> None:
        super().__init__()
        #: Every arbitrage known, shown or filtered out.
        self.arbs = ArbRows()
        #: The filter in force (the last good one typed).
        self.filter = ArbFilter()
        #: Why the last filter input was refused, or "".
        self.filter_error = ""
        #: The account's bookmakers, asked of the service once.
        self.bookmakers: list[str] | None = None
        #: Unix time of the last service answer, and the last failure as plain text.
        self.service_at: float | None = None
        self.service_error = ""
        self._next_fetch = 0.0
        self._fetching = False
        self._sorted_at = -RESORT_EVERY
        self._summary = Text()
        self._refilter: Timer | None = None

    def compose_body(self) -> ComposeResult:
        with HorizontalScroll(id="arb-filters", classes="filters"):
            for name, label, placeholder in FILTERS:
                yield Label(label, classes="filter-label")
                yield Input(placeholder=placeholder, id=f"filter-{name}", classes="filter")
        yield Static("", id="filter-error", classes="filter-error")
        yield Static("", id="arb-summary", classes="summary")
        table = BoardTable(id="arbs")
        table.set_columns(COLUMNS)
        yield table
        yield Static("Looking for arbitrages…", classes="empty")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one(PatchTable).focus()

    # ------------------------------------------------------------------ data in

    def redraw(self) -> None:
        self._scan_book(None)
        self._fetch_if_due()
        self._render_rows(set(self.arbs.rows), full=True)

    def patch(self, changes: ChangeSet) -> None:
        if changes.prices:
            self._scan_book(changes.prices)
        dirty = self.arbs.take_dirty()
        events = changes.events
        if events:
            dirty |= {key for key, row in self.arbs.rows.items() if row.event_id in events}
        if dirty or changes.catalog:
            self._render_rows(dirty, full=changes.catalog)

    def tick(self, now: float) -> None:
        self._fetch_if_due()
        gone = self.arbs.sweep(now)
        self._render_rows(set(), full=False, ages=True, refilter=bool(gone))

    def _scan_book(self, keys: Any) -> None:
        """Local detection: the markets in `keys`, or every market of the book when None."""
        now = self.hub.now()
        with reading_book(self.hub) as book:
            if book is None:
                return
            if keys is None:
                checked = [
                    (event_id, market)
                    for event_id in list(book.event_ids())
                    for market in book.market_names(event_id)
                ]
                found = [
                    (event_id, market, line, arb)
                    for event_id, market in checked
                    for line, arb in book.arbitrages(event_id, market)
                ]
            else:
                market_keys = [key for key in keys if len(key) == 3]
                checked = [(key[0], key[2]) for key in market_keys]
                found = book.arbitrages_in(market_keys)
        self.arbs.set_local(found, checked, now)

    def _budget_interval(self) -> float | None:
        return refresh_interval(
            self.hub.api.budget, REFRESH, reserve=RESERVE, low_share=LOW_BUDGET_SHARE
        )

    def _fetch_if_due(self) -> None:
        interval = self._budget_interval()
        if self._fetching or interval is None or time.monotonic() < self._next_fetch:
            return
        self._fetching = True
        self._next_fetch = time.monotonic() + interval
        self.run_worker(
            self._fetch_service(),
            group="arbitrage",
            description="load the service's arbitrages",
            exclusive=True,
            exit_on_error=False,
        )

    async def _fetch_service(self) -> None:
        try:
            if self.bookmakers is None:
                selected = await self.hub.api.selected_bookmakers()
                self.bookmakers = list(selected.bookmakers)
            items = await self.hub.api.arbitrage_bets(
                self.bookmakers, limit=SERVICE_LIMIT, include_event_details=True
            )
        except OddsApiError as error:
            self.service_error = clean(error)
            self._show_summary()
            raise
        finally:
            self._fetching = False
            self.hub.note_budget()
        self.service_error = ""
        self.service_at = self.hub.now()
        self.arbs.set_service(items, self.service_at)
        if self.is_current:
            self._render_rows(self.arbs.take_dirty(), full=False)
        else:
            self.missed_changes = True

    # ------------------------------------------------------------------ drawing

    def _render_rows(
        self, dirty: set[str], *, full: bool, ages: bool = False, refilter: bool = False
    ) -> None:
        """Patch the rows in `dirty` (all when `full`), the moving cells when `ages`, and the
        row set and order when anything could have changed them."""
        table = self.query_one(PatchTable)
        fmt = odds_format(self.app)
        now = self.hub.now()
        clock = book_clock(self.hub)()
        shown = set(table.row_keys)
        by_age = self.filter.max_age is not None
        with reading_book(self.hub) as book:

            def age_of(row: ArbRow) -> float | None:
                return self._oldest_leg_age(book, row, now, clock)

            # Ages cost a book lookup per leg: only the age filter needs them for every row.
            wanted: dict[str, ArbRow] = {
                key: row
                for key, row in self.arbs.rows.items()
                if self.filter.accepts(row, self._sport_of(row), age_of(row) if by_age else None)
            }
            reorder = full or refilter or bool(dirty) or len(wanted) != len(shown)
            cursor = table.highlighted_key()
            if reorder:
                keep_only(
                    table,
                    wanted,
                    lambda key: self._cells(wanted[key], age_of(wanted[key]), now, fmt),
                )
                shown = set(table.row_keys)
            for key, row in wanted.items():
                if full or key in dirty or key not in shown:
                    table.sync_row(key, self._cells(row, age_of(row), now, fmt))
            if ages:
                # Clocks and ages move every second: patch only the rows on screen (the others
                # catch up on the next tick once scrolled into view).
                for key in self._visible_keys(table):
                    if key in wanted:
                        moving = self._moving_cells(wanted[key], age_of(wanted[key]), now)
                        table.sync_row(key, moving)
        if reorder:
            self._sort(table, wanted, cursor, force=full or refilter)
        empty = self.query_one(".empty", Static)
        empty.display = not wanted
        table.display = bool(wanted)
        if not wanted:
            empty.update(self._empty_text())
        self._show_summary(len(wanted))

    def _sort(
        self, table: PatchTable, wanted: dict[str, ArbRow], cursor: str | None, *, force: bool
    ) -> None:
        """Order by profit at most every `RESORT_EVERY` seconds (or at once for a new filter):
        between sorts prices patch in place and new rows wait at the bottom, so the board does
        not churn under the trader's eyes (nor fill the terminal link)."""
        now = time.monotonic()
        if force or now - self._sorted_at >= RESORT_EVERY:
            self._sorted_at = now
            table.order_rows(ordered_keys(wanted, table.row_keys))
        keep_cursor(table, cursor)

    @staticmethod
    def _visible_keys(table: PatchTable) -> list[str]:
        first = int(table.scroll_y)
        return table.row_keys[first : first + table.size.height + 1]

    def _empty_text(self) -> Text:
        if self.arbs.rows:
            return Text(f"No arbitrage passes the filters ({len(self.arbs.rows)} hidden).")
        if self.service_error:
            return Text(f"Could not load the service's arbitrages: {self.service_error}")
        if self.service_at is None:
            return Text("Looking for arbitrages…")
        return Text("No arbitrage right now: prices across bookmakers agree.")

    def _show_summary(self, shown: int | None = None) -> None:
        rows = self.arbs.rows.values()
        svc = sum(1 for row in rows if row.sources == {SVC})
        local = sum(1 for row in rows if row.sources == {LOCAL})
        both = sum(1 for row in rows if len(row.sources) == 2)
        text = Text()
        if shown is not None:
            text.append(f"{shown} shown", "bold")
            text.append(f" · {svc} SVC, {local} LOCAL, {both} BOTH · ")
        text.append(PROFIT_DEFINITION, "dim")
        if self.service_error:
            text.append(f" · service: {self.service_error}", "bold")
        elif self.service_at is not None:
            text.append(f" · service {age_text(self.hub.now() - self.service_at).plain} ago")
        if self._budget_interval() is None:
            text.append(" · service paused: hourly budget nearly spent")
        if text != self._summary:  # an unchanged line is not repainted
            self._summary = text
            self.query_one("#arb-summary", Static).update(text)

    def _cells(self, row: ArbRow, age: float | None, now: float, fmt: Any) -> dict[str, Text]:
        style = VANISHED_STYLE if row.vanished_at is not None else ""
        legs = " │ ".join(
            f"{clean(leg.bookmaker)} {clean(leg.label or leg.side)} {price_text(leg.price, fmt)}"
            for leg in row.legs
        )
        event = self.hub.board.events.get(row.event_id)
        title = event.title if event else (f"{row.home} v {row.away}" if row.home else "")
        return {
            "source": Text(row.source_label, style=style or _source_style(row)),
            "profit": percent_text(row.profit_pct, style=style or "bold"),
            "event": plain(title or f"event {row.event_id}", style),
            "market": plain(row.line_text, style),
            "legs": Text(legs, style=style, no_wrap=True, overflow="ellipsis"),
            "sport": plain(event.sport_name if event else row.sport, style),
            **self._moving_cells(row, age, now),
        }

    def _moving_cells(self, row: ArbRow, age: float | None, now: float) -> dict[str, Text]:
        style = VANISHED_STYLE if row.vanished_at is not None else ""
        event = self.hub.board.events.get(row.event_id)
        age_cell = age_text(age, step=AGE_STEP)
        age_cell.stylize(style)
        return {
            "age": age_cell,
            "score": cells.score_text(event, self.hub.status.trustworthy) if event else Text(""),
            "clock": cells.clock_text(event, now) if event else Text(""),
        }

    def _oldest_leg_age(self, book: Any, row: ArbRow, now: float, clock: float) -> float | None:
        """From the feed's book when it holds the legs' prices, else the service's updatedAt."""
        if book is not None and LOCAL in row.sources:
            ages = [
                book.price_age(
                    row.event_id, leg.bookmaker, row.market, (row.hdp, row.label), leg.side, clock
                )
                for leg in row.legs
            ]
            known = [age for age in ages if age is not None]
            if known:
                return max(known)
        if row.service_updated is not None:
            return max(now - row.service_updated, 0.0)
        return None

    def _sport_of(self, row: ArbRow) -> tuple[str, ...]:
        event = self.hub.board.events.get(row.event_id)
        if event is not None:
            return (event.sport_name, event.sport_slug)
        return (row.sport,)

    # ------------------------------------------------------------------ filters

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id is None or not event.input.id.startswith("filter-"):
            return
        event.stop()
        name = event.input.id.removeprefix("filter-")
        try:
            self.filter = self.filter.with_field(name, event.value)
        except ValueError as error:
            self.filter_error = str(error)
            event.input.add_class("-invalid")
        else:
            self.filter_error = ""
            event.input.remove_class("-invalid")
            # Redraw once typing pauses, not on every key of "football".
            if self._refilter is not None:
                self._refilter.stop()
            self._refilter = self.set_timer(FILTER_PAUSE, self._apply_filter)
        self._show_filter_error()

    def _apply_filter(self) -> None:
        self._refilter = None
        self._render_rows(set(), full=False, refilter=True)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id and event.input.id.startswith("filter-"):
            event.stop()
            if not self.filter_error:
                self.query_one(PatchTable).focus()

    def _show_filter_error(self) -> None:
        error = self.query_one("#filter-error", Static)
        error.update(
            Text(f"✗ {self.filter_error} (keeping the last good filter)")
            if self.filter_error
            else ""
        )
        error.display = bool(self.filter_error)

    def action_edit_filters(self) -> None:
        self.query_one("#filter-min_profit", Input).focus()

    def action_leave_filters(self) -> None:
        if isinstance(self.focused, Input):
            self.query_one(PatchTable).focus()

    def action_refresh_service(self) -> None:
        self._next_fetch = 0.0
        self._fetch_if_due()

    # ------------------------------------------------------------------ the ticket

    def selected_event_id(self) -> int | None:
        row = self._highlighted()
        return None if row is None else row.event_id

    def _highlighted(self) -> ArbRow | None:
        key = self.query_one(PatchTable).highlighted_key()
        return None if key is None else self.arbs.rows.get(key)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.open_ticket()

    def open_ticket(self) -> None:
        row = self._highlighted()
        if row is None:
            return
        board_event = self.hub.board.events.get(row.event_id)
        title = board_event.title if board_event else f"{row.home} v {row.away}"
        title = f"{title} · {row.line_text} · {row.profit_pct:+.2f}%"
        key = row.key

        def legs_now() -> list[TicketLeg] | None:
            current = self.arbs.rows.get(key)
            return None if current is None else self.ticket_legs(current)

        modal = StakeTicketModal(
            title,
            self.ticket_legs(row),
            refresh_legs=legs_now,
            ticked=self.hub.ticked,
            odds_format=odds_format(self.app),
        )
        self.app.push_screen(modal, self._ticket_closed)

    def ticket_legs(self, row: ArbRow) -> list[TicketLeg]:
        """The legs with their age and last move, from the feed's book where it has them."""
        clock = book_clock(self.hub)()
        legs = []
        with reading_book(self.hub) as book:
            for leg in row.legs:
                age = previous = moved_ago = None
                if book is not None:
                    line = (row.hdp, row.label)
                    age = book.price_age(
                        row.event_id, leg.bookmaker, row.market, line, leg.side, clock
                    )
                    move = book.movement(row.event_id, leg.bookmaker, row.market, line, leg.side)
                    if move is not None and move.previous is not None:
                        previous, moved_ago = move.previous, clock - move.since
                if age is None and row.service_updated is not None:
                    age = max(self.hub.now() - row.service_updated, 0.0)
                legs.append(
                    TicketLeg(
                        leg.side, leg.bookmaker, leg.price, leg.label, age, previous, moved_ago
                    )
                )
        return legs

    def _ticket_closed(self, plan: StakePlan | None) -> None:
        if plan is not None:
            stakes = " / ".join(f"{stake:.2f}" for stake in plan.stakes)
            self.notify(f"Stakes {stakes}: guaranteed {plan.guaranteed:+.2f}", timeout=5)


def _source_style(row: ArbRow) -> str:
    return "bold" if len(row.sources) == 2 else ""
