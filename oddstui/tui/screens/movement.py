"""The odds movement modal of the Event screen (`g`): the price history of the highlighted
bookmaker on the market and line shown, from GET /odds/movements (fetched on demand, cached)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import getters
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from oddstui.api.errors import OddsApiError
from oddstui.book.formats import ODDS_FORMATS, OddsFormat
from oddstui.book.state import LineKey
from oddstui.tui import price_rows
from oddstui.tui.text import clean
from oddstui.tui.widgets.movement_chart import BudgetLow, MovementChart, movement_cache, side_moves

if TYPE_CHECKING:
    from oddstui.tui.app import OddsApp


class MovementModal(ModalScreen[None]):
    """The price history of one bookmaker's market and line.

    | key | action |
    |---|---|
    | `escape` / `g` | close |
    """

    if TYPE_CHECKING:
        app = getters.app(OddsApp)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Close", id="movement-close"),
        Binding("g", "dismiss", "Close", show=False, id="movement-close-g"),
    ]

    def __init__(
        self,
        event_id: int,
        title: str,
        bookmaker: str,
        market: str,
        line: LineKey,
        sides: list[str],
    ) -> None:
        super().__init__()
        self.event_id = event_id
        self.title_text = title
        self.bookmaker = bookmaker
        self.market = market
        self.line = line
        self.sides = sides

    def compose(self) -> ComposeResult:
        with Vertical(id="movement-box"):
            heading = Text("Odds movement  ", style="bold")
            heading.append(clean(self.title_text))
            yield Static(heading, classes="movement-title")
            what = Text(clean(self.bookmaker), style="bold")
            what.append(" · ").append(clean(self.market))
            line = price_rows.line_text(self.market, self.line)
            if line != "–":
                what.append(f" {line}")
            yield Static(what, classes="movement-what")
            yield MovementChart()
            yield Static(Text("escape closes", style="dim italic"), classes="movement-keys")

    def on_mount(self) -> None:
        self.query_one(MovementChart).show_message("Loading the price history…")
        self.run_worker(
            self._load(), group="movement", description="odds movement", exit_on_error=False
        )

    @property
    def odds_format(self) -> OddsFormat:
        fmt = self.app.settings.odds_format
        return fmt if fmt in ODDS_FORMATS else "decimal"

    async def _load(self) -> None:
        chart = self.query_one(MovementChart)
        hub = self.app.hub
        try:
            movements = await movement_cache(hub.api).get(
                self.event_id, self.bookmaker, self.market, self.line[0]
            )
        except BudgetLow as error:
            chart.show_message(f"Not fetched: {error}.")
            return
        except OddsApiError as error:
            chart.show_message(f"Could not load the price history: {clean(error)}")
            return
        hub.note_budget()
        label = self.line[1]
        if label is not None:  # a player prop: the history holds every player's line
            movements = _only_label(movements, label)
        moves = side_moves(movements, self.sides)
        labels = {side: price_rows.side_label(side) for side in {m.side for m in moves}}
        chart.show(moves, labels, self.odds_format)


def _only_label(movements: Any, label: str) -> Any:
    from dataclasses import replace

    ticks = tuple(t for t in movements.ticks if t.label == label)
    opening = movements.opening if movements.opening and movements.opening.label == label else None
    return replace(movements, ticks=ticks, opening=opening)


def open_movement(screen: Any) -> None:
    """`g` on the Event screen: the history of the highlighted bookmaker's row."""
    from oddstui.tui.widgets.price_grid import PriceGrid

    market, line = screen.market, screen.line
    bookmaker = screen.query_one(PriceGrid).highlighted_key()
    if market is None or line is None or bookmaker is None:
        screen.notify("No prices to chart yet.", severity="warning")
        return
    event = screen.event
    title = event.title if event is not None else f"event {screen.event_id}"
    screen.app.push_screen(
        MovementModal(screen.event_id, title, bookmaker, market, line, list(screen._sides))
    )
