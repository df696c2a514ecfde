"""Event: crests, scoreboard and clock, and the markets × bookmakers grid of one event.

The grid shows the feed's book (kept current by the feed, snapshotted over REST when the screen
asks the hub to track the event), read through the hub in one go (`price_rows.price_view`) and
formatted after. It is patched from the hub's change sets and from the one-second tick (ages,
flashes running out, the clock), never per message.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Static

from oddstui import config
from oddstui.book.formats import ODDS_FORMATS, OddsFormat
from oddstui.book.state import LineKey
from oddstui.tui.desk.state import LIVE, SETTLED, ChangeSet, EventView
from oddstui.tui.event import price_rows
from oddstui.tui.event.closing_odds import show_closing
from oddstui.tui.event.crest import Crest
from oddstui.tui.event.grid_export import beside_records, grid_records
from oddstui.tui.event.market_bar import market_bar
from oddstui.tui.event.market_choice import chosen_markets, step_through, toggle_market
from oddstui.tui.event.market_panels import (
    CellCache,
    Panels,
    panel_cells,
    panel_columns,
    panel_groups,
    read_panels,
)
from oddstui.tui.event.movement_modal import open_movement
from oddstui.tui.event.price_cells import WIDE_FROM, grid_columns
from oddstui.tui.event.price_grid import PriceGrid
from oddstui.tui.event.scoreboard import Scoreboard
from oddstui.tui.kit.board_screen import BoardScreen
from oddstui.tui.kit.export_action import export_and_say, export_bindings
from oddstui.tui.text import plain

#: Cells of the screen's width the grid leaves for its rows' scrollbar.
GRID_GUTTER = 2
#: Without any price after this long (seconds), an event with no bookmakers is "no coverage".
COVERAGE_WAIT = 4.0
EMPTY_VIEW = price_rows.PriceView((), None, (), None, (), (), False)
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
    | `v` | each price's edge against the fair price (a sharp book, margin removed), or prices |
    | `p` | pin or unpin the market: pinned markets stand beside the stepped one |
    | `e` / `E` / `ctrl+e` | export the grid's rows (CSV / JSON / Parquet) |

    From about 160 columns (120 when they fit) other markets stand beside the one stepped
    through: the pinned ones first (the sport's main markets until the trader pins others).

    A settled event shows its closing odds (GET /historical/odds) instead of the live grid.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("m", "step_market(1)", "Market", id="event-next-market"),
        Binding("M", "step_market(-1)", "Prev market", show=False, id="event-previous-market"),
        Binding(
            "right_square_bracket", "step_line(1)", "Line", key_display="]", id="event-next-line"
        ),
        Binding("l", "step_line(1)", "Line", show=False, id="event-next-line-l"),
        Binding(
            "left_square_bracket",
            "step_line(-1)",
            "Prev line",
            key_display="[",
            show=False,
            id="event-previous-line",
        ),
        Binding("g", "graph", "Graph", id="event-graph"),
        Binding("v", "toggle_edges", "Edge", id="event-edges"),
        Binding("p", "pin_market", "Pin", id="event-pin-market"),
        *export_bindings("event-export", show=False),
    ]

    def __init__(self, event_id: int) -> None:
        super().__init__()
        #: The event shown.
        self.event_id = event_id
        #: The market and line shown (None until the book has prices).
        self.market: str | None = None
        self.line: LineKey | None = None
        self._markets: tuple[str, ...] = ()
        self._lines: tuple[LineKey, ...] = ()
        self._sides: tuple[str, ...] = ()
        self._shown: tuple[object, ...] = ()  # the grid's data set: market, line, sides
        self._bar: Text | None = None
        self._heading: Text | None = None
        self._notice: str | None = None
        self._opened = time.monotonic()
        self._crests_loading = False
        self._closing_odds_shown = False  # a settled event: closing odds replace the grid
        #: The grid's figures as last shown: the stepped market's rows, and every market shown.
        self.rows: tuple[price_rows.GridRow, ...] = ()
        self.panels: Panels | None = None
        #: Edges against the fair price instead of prices (`v`).
        self.edges = False
        self._beside_lines: dict[str, LineKey] = {}
        self._beside_cells: CellCache = {}

    # ------------------------------------------------------------------ layout

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="event-top"):
            yield Crest(id="crest-home")
            yield Scoreboard(id="scoreboard")
            yield Crest(id="crest-away")
        yield Static("", id="market-bar")
        yield from self.compose_grid()
        yield Static("", id="no-coverage", classes="empty")

    def compose_grid(self) -> Iterator[PriceGrid]:
        """The grid (`#price-grid`); the benchmarks put their naive one here."""
        yield PriceGrid(id="price-grid")

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
        if changes.feed:
            self._show_prices()
            return
        keys = [key for key in changes.prices if key[0] == self.event_id]
        if keys:
            # Markets beside the stepped one are read again only when their prices changed.
            whole = any(len(key) == 2 for key in keys)
            self._show_prices(None if whole else {key[2] for key in keys if len(key) == 3})

    def tick(self, now: float) -> None:
        self._show_event(now)
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
        api = self.hub.api
        self.query_one("#crest-home", Crest).load(api, event.home_id, event.home)
        self.query_one("#crest-away", Crest).load(api, event.away_id, event.away)

    # ------------------------------------------------------------------ prices

    @property
    def odds_format(self) -> OddsFormat:
        fmt = self.app.settings.odds_format
        return fmt if fmt in ODDS_FORMATS else "decimal"

    @property
    def commission(self) -> float:
        """The exchanges' commission on winnings, from the settings."""
        rate = self.app.settings.exchange_commission
        return float(rate) if 0 <= rate < 1 else 0.0

    def _show_prices(self, changed: set[str] | None = None) -> None:
        """Read and show the prices; `changed`: only these markets changed (the others beside
        the stepped one are kept as last read), None: any may have."""
        if self._closing_odds_shown:
            return
        event = self.event
        sport, live = (event.sport_slug, event.status == LIVE) if event else (None, False)
        settings = self.app.settings
        stale_after = settings.stale_live if live else settings.stale_prematch
        trusted = self.hub.status.trustworthy
        feed = self.hub.feed
        clock = feed.monotonic if feed is not None else time.monotonic
        market, line = self.market, self.line
        width, chosen = self.size.width - GRID_GUTTER, chosen_markets(settings, sport)
        kept = {}
        if changed is not None and self.panels is not None:
            kept = {v.market: v for v in self.panels.beside if v.market not in changed}
        panels = self.hub.read(
            lambda book: read_panels(
                book,
                self.event_id,
                sport,
                market,
                line,
                clock(),
                width=width,
                chosen=chosen,
                lines=self._beside_lines,
                kept=kept,
                stale_after=stale_after,
                trusted=trusted,
                commission=self.commission,
            )
        )
        if panels is None:
            self._show_coverage("No price feed: prices need a connection to the feed.")
            return
        view = panels.main
        self._markets, self._lines = view.markets, view.lines
        self.market, self.line = view.market, view.line
        if view.line is None:
            self.rows = ()
            self._show_no_prices(view.has_header)
            self._show_bar()
            return
        self._beside_lines = {v.market: v.line for v in panels.beside if v.market and v.line}
        shown = (
            (view.market, view.line, view.sides),
            tuple((v.market, v.line, v.sides) for v in panels.beside),
            self.app.size.width >= WIDE_FROM,
        )
        self.panels = panels
        if shown != self._shown:
            # Only markets beside the stepped one changed: the rows and their cursor stay.
            old = self._shown
            keep_rows = bool(old) and (shown[0], shown[2]) == (old[0], old[2])
            self._shown, self._sides = shown, view.sides
            self.set_columns(view.sides, keep_rows=keep_rows)
        self._show_coverage(None)
        self.rows = view.rows
        self.show_rows(view.rows, view.sides)
        self._show_bar(len(view.rows))

    def set_columns(self, sides: tuple[str, ...], *, keep_rows: bool = False) -> None:
        """A new data set (a market, line or sides changed): new columns, rows refilled, or
        kept with `keep_rows` (see `PriceGrid.set_columns`)."""
        prices = self.query_one(PriceGrid)
        prices.fit_width(self.size.width - GRID_GUTTER)
        panels = self.panels
        if panels is None:
            prices.set_columns(grid_columns(list(sides), self.app.size.width))
            return
        columns, groups = panel_columns(panels, self.app.size.width), panel_groups(panels)
        prices.set_columns(columns, groups, keep_rows=keep_rows)

    def on_resize(self) -> None:
        for prices in self.query(PriceGrid):  # none before compose
            prices.fit_width(self.size.width - GRID_GUTTER)
        if self.is_mounted and self.panels is not None:
            self._show_prices()  # more or fewer markets fit

    def show_rows(self, rows: tuple[price_rows.GridRow, ...], sides: tuple[str, ...]) -> bool:
        """Write the rows of every market shown into the grid; True when any cell changed."""
        panels = self.panels
        if panels is None or panels.main.rows is not rows:
            panels = Panels(replace(panels.main if panels else EMPTY_VIEW, rows=rows, sides=sides))
        cells = panel_cells(panels, self.odds_format, self.edges, self._beside_cells)
        return self.query_one(PriceGrid).sync_rows(cells) > 0

    def _show_no_prices(self, has_header: bool) -> None:
        event = self.event
        status = self.hub.status
        if event is not None and event.bookmaker_count == 0:
            self._show_coverage(NO_COVERAGE)
        elif not status.trustworthy:
            self._show_coverage(f"No prices yet: the feed is {status.state}.")
        elif has_header or time.monotonic() - self._opened > COVERAGE_WAIT:
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
        bar = market_bar(self.market, self._markets, self.line, self._lines, bookmakers)
        if self.edges:
            main = self.panels.main if self.panels is not None else None
            source = main.fair_from if main is not None else None
            if source:
                bar.append(f"   edge vs fair ({source}, margin removed)", style="bold")
            else:
                bar.append("   edge: no sharp price", style="dim")
        if bar != self._bar:
            self._bar = bar
            self.query_one("#market-bar", Static).update(bar, layout=False)

    # ------------------------------------------------------------------ keys

    def action_step_market(self, step: int) -> None:
        if self._markets:
            self.market = step_through(self._markets, self.market, step)
            self.line = None  # its main line
            self._show_prices()

    def action_step_line(self, step: int) -> None:
        if len(self._lines) > 1:
            self.line = step_through(self._lines, self.line or self._lines[0], step)
            self._show_prices()

    def action_toggle_edges(self) -> None:
        self.edges = not self.edges
        self._show_prices()

    def action_pin_market(self) -> None:
        if self.market is None:
            return
        event = self.event
        pinned = toggle_market(self.app.settings, event.sport_slug if event else None, self.market)
        self._shown = ()  # the markets beside it may change
        self._show_prices()
        try:
            config.save_settings(self.app.settings)
        except (OSError, config.ConfigError) as error:
            self.notify(f"Could not keep the choice of markets: {error}", timeout=5)
            return
        self.notify(f"{self.market} {'pinned' if pinned else 'unpinned'}", timeout=2)

    def action_graph(self) -> None:
        if not self._closing_odds_shown:
            open_movement(self)

    def action_export(self, fmt: str) -> None:
        event = self.hub.board.events.get(self.event_id)
        records = grid_records(self.event_id, event, self.market, self.line, self._sides, self.rows)
        records += beside_records(self.event_id, event, self.panels)
        export_and_say(self, f"event-{self.event_id}", records, fmt, noun="bookmakers")
