"""Event: crests, scoreboard and clock, and the markets × bookmakers grid of one event.

The grid reads the hub's `OddsBook` (kept current by the feed, snapshotted over REST when the
screen asks the hub to track the event). It is patched from the hub's change sets a few times a
second and from the one-second tick (ages, flashes running out, the clock), never per message.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Static

from oddstui.book.formats import ODDS_FORMATS, OddsFormat
from oddstui.book.state import LineKey
from oddstui.tui import price_rows
from oddstui.tui.paint_log import naive_grid_requested, paint_log
from oddstui.tui.price_cells import grid_columns, row_cells
from oddstui.tui.screens.base import BoardScreen
from oddstui.tui.screens.movement import open_movement
from oddstui.tui.state import LIVE, SETTLED, ChangeSet, EventView
from oddstui.tui.text import plain
from oddstui.tui.widgets.closing_odds import show_closing
from oddstui.tui.widgets.crest import Crest, crest_cache
from oddstui.tui.widgets.naive_grid import NaiveGrid
from oddstui.tui.widgets.price_grid import PriceGrid
from oddstui.tui.widgets.scoreboard import Scoreboard

#: Without any price after this long (seconds), an event with no bookmakers is "no coverage".
COVERAGE_WAIT = 4.0
NO_COVERAGE = (
    "No coverage: no bookmaker quotes this event right now. Prices appear here as soon as one does."
)


class EventScreen(BoardScreen):
    """One event: crests, scoreboard, and a market's prices across bookmakers.

    | key | action |
    |---|---|
    | `m` / `M` | next / previous market |
    | `]` or `l` / `[` | next / previous line (Spread, Totals, ...) |
    | `j` / `k` | next / previous bookmaker |
    | `w` | star or unstar the event |
    | `g` | price history of the highlighted bookmaker |

    A settled event shows its closing odds (GET /historical/odds) instead of the live grid.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("m", "next_market", "Market", id="event-next-market"),
        Binding("M", "previous_market", "Prev market", show=False, id="event-previous-market"),
        Binding("right_square_bracket", "next_line", "Line", key_display="]", id="event-next-line"),
        Binding("l", "next_line", "Line", show=False, id="event-next-line-l"),
        Binding(
            "left_square_bracket",
            "previous_line",
            "Prev line",
            key_display="[",
            show=False,
            id="event-previous-line",
        ),
        Binding("g", "graph", "Graph", id="event-graph"),
    ]

    def __init__(self, event_id: int) -> None:
        super().__init__()
        #: The event shown.
        self.event_id = event_id
        #: The market and line shown (None until the book has prices).
        self.market: str | None = None
        self.line: LineKey | None = None
        self._markets: list[str] = []
        self._lines: list[LineKey] = []
        self._sides: list[str] = []
        self._bar: Text | None = None
        self._heading: Text | None = None
        self._notice: str | None = None
        self._opened = time.monotonic()
        self._crests_loading = False
        self._log = paint_log()
        self._painted = 0.0  # receive stamp of the newest message painted (benchmark only)
        self._naive = naive_grid_requested()
        self._closing_odds_shown = False  # a settled event: closing odds replace the grid

    # ------------------------------------------------------------------ layout

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="event-top"):
            yield Crest(id="crest-home")
            yield Scoreboard(id="scoreboard")
            yield Crest(id="crest-away")
        yield Static("", id="market-bar")
        if self._naive:
            yield NaiveGrid(id="price-grid")
        else:
            yield PriceGrid(id="price-grid")
        yield Static("", id="no-coverage", classes="empty")

    def on_mount(self) -> None:
        self.query_one("#no-coverage").display = False
        super().on_mount()
        self.hub.track([self.event_id])
        self.run_worker(
            self._load_event(),
            group="event",
            description=f"event {self.event_id}",
            exit_on_error=False,
        )
        self.query_one("#price-grid").focus()
        if self._log is not None:
            book = self.hub.book
            applied = (lambda: book.applied) if book is not None else None
            self.run_worker(
                self._log.probe_loop_lag(applied), group="benchmark", description="loop-lag probe"
            )

    async def _load_event(self) -> None:
        view = await self.hub.load_event(self.event_id)
        self._load_crests()
        if view.status == SETTLED:
            self._closing_odds_shown = True
            show_closing(self)

    # ------------------------------------------------------------------ BoardScreen hooks

    def redraw(self) -> None:
        self._show_event(self.hub.now())
        self._show_prices()

    def patch(self, changes: ChangeSet) -> None:
        if self.event_id in changes.events or changes.feed or changes.catalog:
            self._show_event(self.hub.now())
        ours = any(key[0] == self.event_id for key in changes.prices)
        if changes.feed or (ours and not self._naive):
            self._show_prices()
        elif ours and self.market is None:
            self._show_prices()

    def tick(self, now: float) -> None:
        self._show_event(now)
        if not self._naive or self.market is None:
            self._show_prices()

    def selected_event_id(self) -> int | None:
        return self.event_id

    # ------------------------------------------------------------------ scoreboard and crests

    @property
    def event(self) -> EventView | None:
        return self.hub.board.events.get(self.event_id)

    def _show_event(self, now: float) -> None:
        event = self.event
        scoreboard = self.query_one(Scoreboard)
        if event is None:
            error = self.hub.errors.get(("event", self.event_id))
            scoreboard.show_message(
                f"Could not load event {self.event_id}: {error}" if error else "Loading the event…"
            )
            return
        scoreboard.show(event, now, self.hub.status.trustworthy)
        star = "★ " if self.hub.is_watched(self.event_id) else ""
        heading = Text(star).append_text(plain(f"{event.sport_name} › {event.league_name}"))
        if heading != self._heading:
            self._heading = heading
            self.query_one(".heading", Static).update(heading, layout=False)
        if not self._crests_loading and (event.home_id or event.away_id):
            self._load_crests()

    def _load_crests(self) -> None:
        event = self.event
        if event is None or self._crests_loading:
            return
        self._crests_loading = True
        for widget_id, participant, name in (
            ("#crest-home", event.home_id, event.home),
            ("#crest-away", event.away_id, event.away),
        ):
            self.run_worker(
                self._show_crest(widget_id, participant, name),
                group="crests",
                description=f"crest of {name}",
                exit_on_error=False,
            )

    async def _show_crest(self, widget_id: str, participant: int | None, name: str) -> None:
        crest = self.query_one(widget_id, Crest)
        if participant is None:
            crest.show(None, name)
            return
        try:
            image = await crest_cache(self.hub.api).get(participant)
        except Exception:
            crest.show(None, name)  # a crest is decoration: its failure is no error to report
            return
        crest.show(image, name)

    # ------------------------------------------------------------------ prices

    @property
    def odds_format(self) -> OddsFormat:
        fmt = getattr(getattr(self.app, "settings", None), "odds_format", "decimal")
        return fmt if fmt in ODDS_FORMATS else "decimal"

    def _book_clock(self) -> Callable[[], float]:
        """The clock of the book's receive stamps (the feed may supply a frozen one in tests)."""
        clock: Any = getattr(self.hub.feed, "monotonic", None)
        return clock if callable(clock) else time.monotonic

    def _show_prices(self) -> None:
        if self._closing_odds_shown:
            return
        book = self.hub.book
        if book is None:
            self._show_coverage("No price feed: prices need a connection to the feed.")
            return
        lock = self.hub.book_lock
        if lock is None:
            self._read_prices(book)
            return
        with lock:
            self._read_prices(book)

    def _read_prices(self, book: Any) -> None:
        event_id = self.event_id
        markets = price_rows.market_order(book.market_names(event_id))
        self._markets = markets
        if not markets:
            self.market = self.line = None
            self._show_no_prices(book)
            self._show_bar()
            return
        if self.market not in markets:
            self._choose_market(book, markets[0] if "ML" not in markets else "ML")
        assert self.market is not None
        self._lines = book.lines(event_id, self.market)
        if self.line not in self._lines:
            self.line = price_rows.main_line(book, event_id, self.market)
        if self.line is None:
            self._show_no_prices(book)
            self._show_bar()
            return
        sides = price_rows.sides_of(book, event_id, self.market, self.line)
        if sides != self._sides:
            self._sides = sides
            self._set_columns(book)
        self._show_coverage(None)
        if self._naive:
            return
        event = self.event
        rows = price_rows.grid_rows(
            book,
            event_id,
            self.market,
            self.line,
            sides,
            self._book_clock()(),
            live=event is not None and event.status == LIVE,
            trusted=self.hub.status.trustworthy,
        )
        fmt = self.odds_format
        grid = self.query_one(PriceGrid)
        written = grid.sync_rows({row.bookmaker: row_cells(row, sides, fmt) for row in rows})
        if written and self._log is not None and rows:
            newest = max(row.changed for row in rows)
            if newest > self._painted:  # a paint of ages or expired flashes shows no message
                self._painted = newest
                self.call_after_refresh(self._log.painted, newest)
        self._show_bar(len(rows))

    def _choose_market(self, book: Any, market: str) -> None:
        self.market = market
        self._lines = book.lines(self.event_id, market)
        self.line = price_rows.main_line(book, self.event_id, market)
        self._sides = (
            [] if self.line is None else price_rows.sides_of(book, self.event_id, market, self.line)
        )
        self._set_columns(book)

    def _set_columns(self, book: Any) -> None:
        """A new data set (market, line or sides changed): new columns, rows refilled."""
        if self._naive:
            grid = self.query_one(NaiveGrid)
            if self.market is not None and self.line is not None:
                grid.attach(
                    book,
                    self.event_id,
                    self.market,
                    self.line,
                    self._sides,
                    self.odds_format,
                    self._log,
                )
            return
        self.query_one(PriceGrid).set_columns(grid_columns(self._sides, self.app.size.width))

    def _show_no_prices(self, book: Any) -> None:
        event = self.event
        state = book.event(self.event_id)
        status = self.hub.status
        if event is not None and event.bookmaker_count == 0:
            self._show_coverage(NO_COVERAGE)
        elif not status.trustworthy:
            self._show_coverage(f"No prices yet: the feed is {status.state}.")
        elif (state is not None and state.header is not None) or (
            time.monotonic() - self._opened > COVERAGE_WAIT
        ):
            self._show_coverage(NO_COVERAGE)
        else:
            self._show_coverage("Loading prices…")

    def _show_coverage(self, message: str | None) -> None:
        """Say why there is no grid (message), or show the grid (None)."""
        notice = self.query_one("#no-coverage", Static)
        grid = self.query_one("#price-grid")
        if message is None:
            if notice.display:
                notice.display = False
                grid.display = True
            return
        if message != self._notice:
            self._notice = message
            notice.update(Text(message))
        if not notice.display:
            notice.display = True
            grid.display = False

    def _show_bar(self, bookmakers: int = 0) -> None:
        bar = Text(no_wrap=True, overflow="ellipsis")
        if self.market is None:
            bar.append("Market –", style="dim")
        else:
            position = self._markets.index(self.market) + 1 if self.market in self._markets else 0
            bar.append("Market ", style="dim")
            bar.append_text(plain(self.market, "bold"))
            bar.append(f" {position}/{len(self._markets)}", style="dim")
            bar.append("  m/M", style="dim italic")
            if self.line is not None and self.line != (None, None):
                index = self._lines.index(self.line) + 1 if self.line in self._lines else 0
                bar.append("   Line ", style="dim")
                bar.append(price_rows.line_text(self.market, self.line), style="bold")
                bar.append(f" {index}/{len(self._lines)}", style="dim")
                bar.append("  [ ]", style="dim italic")
            if bookmakers:
                bar.append(f"   {bookmakers} bookmakers", style="dim")
        if bar != self._bar:
            self._bar = bar
            self.query_one("#market-bar", Static).update(bar, layout=False)

    # ------------------------------------------------------------------ keys

    def action_next_market(self) -> None:
        self._step_market(1)

    def action_previous_market(self) -> None:
        self._step_market(-1)

    def action_next_line(self) -> None:
        self._step_line(1)

    def action_previous_line(self) -> None:
        self._step_line(-1)

    def _step_market(self, step: int) -> None:
        book = self.hub.book
        if book is None or not self._markets:
            return
        current = self._markets.index(self.market) if self.market in self._markets else -step
        market = self._markets[(current + step) % len(self._markets)]
        with self._locked():
            self._choose_market(book, market)
        self._show_prices()

    def _step_line(self, step: int) -> None:
        if self.hub.book is None or len(self._lines) < 2:
            return
        current = self._lines.index(self.line) if self.line in self._lines else 0
        self.line = self._lines[(current + step) % len(self._lines)]
        book = self.hub.book
        with self._locked():
            self._sides = price_rows.sides_of(book, self.event_id, self.market or "", self.line)
            self._set_columns(book)
        self._show_prices()

    def action_graph(self) -> None:
        if not self._closing_odds_shown:
            open_movement(self)

    def _locked(self) -> Any:
        lock = self.hub.book_lock
        return lock if lock is not None else contextlib.nullcontext()
