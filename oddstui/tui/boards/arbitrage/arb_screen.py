"""Arbitrage (`4`): the service's arbitrages merged with the ones found in the feed's book.

A `RestBoardScreen`: the service's list is refetched on the app's tick when due (slower when the
hourly budget runs low, never while hidden or paused). Local detection runs on the markets each
change set touched. Rows are sorted by the trader's key at most every `RESORT_EVERY` seconds;
the highlighted row keeps its place, and a vanished arbitrage drops, dimmed, below the live ones
for `arb_rows.VANISH_GRACE` seconds.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import ClassVar

from rich.text import Text
from textual.widgets import DataTable

from oddstui.api.errors import OddsApiError
from oddstui.api.models import ArbitrageBet
from oddstui.book.arbitrage import PROFIT_DEFINITION
from oddstui.book.oddsbook import ChangeKey, OddsBook
from oddstui.book.state import finished
from oddstui.book.suspect import suspicion
from oddstui.tui.boards.arbitrage.arb_cells import (
    ARB_COLUMNS,
    arb_counts,
    arb_detail,
    moving_cells,
    row_cells,
    row_rank,
    sport_names,
)
from oddstui.tui.boards.arbitrage.arb_checks import RowChecks, Verdict
from oddstui.tui.boards.arbitrage.arb_export import arb_records
from oddstui.tui.boards.arbitrage.arb_filter import ArbFilter
from oddstui.tui.boards.arbitrage.arb_quotes import (
    LegTimes,
    read_leg_times,
)
from oddstui.tui.boards.arbitrage.arb_rows import ArbRow, ArbRows, scan_book
from oddstui.tui.boards.arbitrage.arb_ticket import ArbTickets
from oddstui.tui.boards.board_cells import age_text
from oddstui.tui.boards.rest_board import RestBoardScreen
from oddstui.tui.boards.ticket.stakes import TicketLeg
from oddstui.tui.desk.state import ChangeSet, in_play
from oddstui.tui.kit.board_table import BoardTable, visible_keys
from oddstui.tui.kit.columns import Column
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.kit.prices import odds_format
from oddstui.tui.kit.service_clock import book_clock, service_time, stale_after
from oddstui.tui.kit.table_sync import keep_only
from oddstui.tui.text import clean

#: Items asked of the service per fetch (its maximum).
SERVICE_LIMIT = 500


class ArbitrageScreen(RestBoardScreen):
    """Live arbitrages; `enter` opens the stake ticket.

    | key | action |
    |---|---|
    | `enter` | stake ticket for the highlighted arbitrage |
    | `f` | edit the filters (min profit, sports, bookmakers, max leg age) |
    """

    heading = "Arbitrage"
    WHAT = "the service's arbitrages"
    REFRESH = 15.0
    RESORT_EVERY = 3.0
    ERROR_HIDES_ROWS = False
    COLUMNS: ClassVar[list[Column]] = ARB_COLUMNS
    FILTERS: ClassVar[tuple[tuple[str, str, str], ...]] = (
        ("min_profit", "min %", "any"),
        ("sports", "sports", "all"),
        ("bookmakers", "books", "any"),
        ("max_age", "max age s", "any"),
    )

    def __init__(self) -> None:
        super().__init__()
        #: Every arbitrage known, shown or filtered out.
        self.arbs = ArbRows()
        #: The filter in force (the last good one typed).
        self.filter = ArbFilter()
        #: The account's bookmakers, asked of the service once.
        self.bookmakers: list[str] | None = None
        self._counts = Text()
        self._layout: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
        #: Why each row passing the filters is suspect ("" when it is not), at the last draw.
        self.suspects: dict[str, str] = {}
        #: Each row's leg quote times and verdict, kept between draws.
        self.checks = RowChecks()
        #: Opens the stake tickets and keeps them live.
        self.tickets = ArbTickets(self, self.arbs)

    def make_table(self) -> PatchTable:
        table = BoardTable(id="arbs")
        table.set_columns(self.COLUMNS)
        return table

    # ------------------------------------------------------------------ data in

    def redraw(self) -> None:
        if self.hold():  # paused (and a modal over the board closed): the rows stay as shown
            return
        self.take_held_answer()
        self._scan_book(None)
        self._drop_ended(None)
        self._fetch_if_due()
        self._render_rows(set(self.arbs.rows), full=True)

    def resort(self) -> None:
        self._sorted_at = float("-inf")
        self._free_order = True
        self._render_rows(set(), full=False, refilter=True)

    def patch(self, changes: ChangeSet) -> None:
        if changes.prices:
            self._scan_book(changes.prices)
        dirty = self.arbs.take_dirty()
        events = changes.events
        # A match that ended leaves the board in this flush, not after the vanish grace: its
        # status (events) or its bookmakers' `deleted` (prices) says so.
        ended = self._drop_ended(events | {key[0] for key in changes.prices})
        if events:
            dirty |= {key for key, row in self.arbs.rows.items() if row.event_id in events}
        if dirty or changes.catalog or ended:
            self._render_rows(dirty, full=changes.catalog, refilter=ended)

    def tick(self, now: float) -> None:
        self._fetch_if_due()
        # A vanished row the trader moved to stays under the cursor until the trader moves.
        held = self.query_one(PatchTable).highlighted_key() if self.holding else None
        gone = self.arbs.sweep(self.hub.now(), keep=held)
        self._render_rows(set(), full=False, ages=True, refilter=bool(gone))

    def _scan_book(self, keys: Iterable[ChangeKey] | None) -> None:
        """Local detection: the markets in `keys`, or every market of the book when None."""
        self.arbs.commission = self.app.settings.exchange_commission
        now = self.hub.now()
        scanned = self.hub.read(lambda book: scan_book(book, keys))
        if scanned is not None:
            self.arbs.set_local(*scanned, now)

    async def fetch(self) -> list[ArbitrageBet]:
        if self.bookmakers is None:
            selected = await self.hub.api.selected_bookmakers()
            self.bookmakers = list(selected.bookmakers)
        return await self.hub.api.arbitrage_bets(
            self.bookmakers, limit=SERVICE_LIMIT, include_event_details=True
        )

    def take_answer(self, answer: list[ArbitrageBet], at: float) -> None:
        items, now = answer, at
        self.arbs.commission = self.app.settings.exchange_commission
        self.arbs.set_service(items, now)
        self._drop_ended(None)

    def _drop_ended(self, event_ids: Collection[int] | None) -> bool:
        """Drop the rows on matches that ended, among `event_ids` (None: every row's event);
        True when any went. The board's status first, else the book's (one locked read)."""
        rows = self.arbs.rows.values()
        ids = {row.event_id for row in rows if event_ids is None or row.event_id in event_ids}
        if not ids:
            return False
        events = self.hub.board.events
        ended = {eid for eid in ids if eid in events and finished(events[eid].status)}
        unknown = [eid for eid in ids if eid not in events]
        if unknown:

            def read(book: OddsBook) -> set[int]:
                states = [book.event(eid) for eid in unknown]
                return {s.event_id for s in states if s is not None and finished(s.status)}

            ended |= self.hub.read(read) or set()
        return bool(ended and self.arbs.drop_events(ended.__contains__))

    def show_rows(self) -> None:
        self._render_rows(self.arbs.take_dirty(), full=False)

    def apply_filter(self, name: str, text: str, submitted: bool) -> bool:
        self.filter = self.filter.with_field(name, text)
        return False

    def explain(self, error: OddsApiError) -> str:
        return f"Could not load the service's arbitrages: {clean(error)}"

    def export_records(self) -> list[dict[str, object]]:
        """Every arbitrage the board holds, in its order, as data (`arb_export`)."""
        table = self.query_one(PatchTable)
        rows = [
            (self.arbs.rows[key], self.suspects.get(key, ""))
            for key in table.row_keys
            if key in self.arbs.rows
        ]
        return arb_records(rows, self.hub.board.events, self.hub.now())

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
        events, changed = self.hub.board.events, self.hub.board.match_changed
        settings = self.app.settings
        trusted = self.hub.status.trustworthy
        before = (table.row_keys, table.highlighted_key())
        shown = set(before[0])
        rows = self.arbs.rows
        checks = self.checks
        # Leg ages count on the service's clock. The one locked pass reads the quote times of
        # the rows that changed; the rest (judging, cells, sorting) runs with the lock released.
        service_now = self._read_quotes(checks.to_read(rows, dirty, full), now, clock)
        # A match's last change was stamped on our clock: moved onto the service's.
        shift = service_now - now
        threshold = self.suspect_profit

        def verdict(key: str) -> Verdict:
            row = rows[key]
            event = events.get(row.event_id)
            age = checks.age(key, service_now)
            if not self.filter.accepts(row, sport_names(row, event), age):
                return Verdict(False)
            at = changed.get(row.event_id)
            live = in_play(event)
            return Verdict(
                True,
                suspicion(
                    row.profit_pct,
                    list(checks.times.get(key, ())) if at is not None else [],
                    None if at is None else at + shift,
                    threshold,
                    age,
                    stale_after(settings, live),
                    live,
                ),
            )

        # Every row is judged again on the age step (ages alone turn rows stale) and when the
        # filters changed; a change set judges the rows it touched.
        judged = rows if full or refilter or ages else dirty & rows.keys()
        turned = checks.judge([*judged, *checks.unjudged(rows)], verdict)
        verdicts = checks.verdicts
        self.suspects = suspects = {
            key: verdicts[key].suspect for key in rows if verdicts[key].accepted
        }
        # The row the trader moved to stays, marked, if it turns suspect; the first row of a
        # fresh board, highlighted by default, is no choice: a suspect one is hidden like any.
        held = before[1] if self.holding else None
        wanted: dict[str, ArbRow] = {
            key: rows[key]
            for key, why in suspects.items()
            if not (why and self.hide_suspects) or key == held
        }
        self.suspects_hidden = len(suspects) - len(wanted)
        reorder = full or refilter or bool(dirty) or len(wanted) != len(shown)

        legs_width = dict(table.column_layout).get("legs", 0)

        def draw(key: str) -> dict[str, Text]:
            row = rows[key]
            return row_cells(
                row,
                events.get(row.event_id),
                checks.age(key, service_now),
                now,
                fmt,
                suspect=suspects[key],
                trusted=trusted,
                legs_width=legs_width,
            )

        if table.query_text:  # a hidden row is counted only when the find would show it
            self.suspects_hidden = sum(
                1 for key in suspects.keys() - wanted.keys() if table.would_pass(draw(key))
            )
        if reorder:
            keep_only(table, wanted, draw)
            shown = set(table.row_keys)
        for key in wanted.keys() & (dirty | turned) if not full else wanted:
            table.sync_row(key, draw(key))
        for key in wanted.keys() - table.shown.keys():
            table.sync_row(key, draw(key))
        if ages:
            # Clocks and ages move every second: patch only the rows on screen (the others
            # catch up on the next tick once scrolled into view).
            for key in visible_keys(table):
                if key in wanted:
                    row = wanted[key]
                    event = events.get(row.event_id)
                    age = checks.age(key, service_now)
                    table.sync_row(key, moving_cells(row, event, age, now, trusted=trusted))
        # Between sorts the order changes only when rows come, go or vanish.
        layout = (frozenset(wanted), frozenset(k for k, r in wanted.items() if r.vanished_at))
        if reorder or self.order_pending:
            self.order_pending = True
            if self.sort_due(full or refilter) or layout != self._layout:
                self._layout = layout
                ranks = {
                    key: row_rank(
                        row,
                        events.get(row.event_id),
                        checks.age(key, service_now) if self.sort_by == "age" else None,
                    )
                    for key, row in wanted.items()
                }
                self.arrange_table(table, ranks, force=full or refilter, before=before)
        found = [wanted[key] for key in self.found(wanted)]
        self._counts = arb_counts(found, len(rows), self.suspects_hidden)
        self.show_table(bool(wanted), self._empty_text())

    def _read_quotes(self, keys: set[str], now: float, clock: float) -> float:
        """Under the feed's lock: the service's time now, and the leg quote times of the rows
        in `keys` (stored in `checks`)."""
        rows = self.arbs.rows

        def read(book: OddsBook | None) -> tuple[float, LegTimes]:
            service_now = now if book is None else service_time(book, clock, now)
            return service_now, read_leg_times(book, rows, keys, service_now, clock)

        found = self.hub.read(read)
        service_now, times = found if found is not None else read(None)
        self.checks.store(times.quoted)
        return service_now

    def _empty_text(self) -> str:
        if self.arbs.rows:
            return f"No arbitrage passes the filters ({len(self.arbs.rows)} hidden)."
        if self.load_error:
            return self.load_error
        if self.loaded_at is None:
            return "Looking for arbitrages…"
        return "No arbitrage right now: prices across bookmakers agree."

    def detail(self, key: str) -> Text | None:
        row = self.arbs.rows.get(key)
        if row is None:
            return Text("")
        return arb_detail(row, self.hub.board.events.get(row.event_id), odds_format(self.app))

    def summary(self) -> Text:
        text = self._counts.copy()
        text.append_text(self.order_words())
        if self.load_error:
            text.append(f" · service: {self.load_error}", "bold")
        elif self.loaded_at is not None:
            text.append(f" · service {age_text(self.hub.now() - self.loaded_at).plain} ago")
        if self.fetch_paused():
            text.append(" · service paused: hourly budget nearly spent")
        text.append(" · ")
        text.append(PROFIT_DEFINITION, "dim")
        if self.arbs.commission:
            text.append(f", exchange prices net of {self.arbs.commission:.0%} commission", "dim")
        return text

    # ------------------------------------------------------------------ the ticket

    def selected_event_id(self) -> int | None:
        row = self._highlighted()
        return None if row is None else row.event_id

    def _highlighted(self) -> ArbRow | None:
        key = self.query_one(PatchTable).highlighted_key()
        return None if key is None else self.arbs.rows.get(key)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        # The row under the cursor when `enter` was pressed, by its key (event, market and
        # line): the board may have re-sorted since, and another row sit at that index now.
        key = event.row_key.value
        self.open_ticket(None if key is None else str(key))

    def open_ticket(self, key: str | None = None) -> None:
        """The ticket for row `key` (default: the highlighted one); nothing if it is gone."""
        row = self._highlighted() if key is None else self.arbs.rows.get(key)
        if row is not None:
            self.tickets.open(row)

    def ticket_legs(self, row: ArbRow) -> list[TicketLeg]:
        """The row's legs as a ticket shows them (`ArbTickets.ticket_legs`)."""
        return self.tickets.ticket_legs(row)
