"""The odds movement modal of the Event screen (`g`): the price history of the highlighted
bookmaker and a few others on the market and line shown, from GET /odds/movements (fetched on
demand, cached), drawn as price against time."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import getters
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from oddstui.api.errors import OddsApiError
from oddstui.api.models import Movements
from oddstui.book.formats import ODDS_FORMATS, OddsFormat
from oddstui.book.state import LineKey
from oddstui.tui.event import price_rows
from oddstui.tui.event.movement_chart import BudgetLow, movement_cache, side_moves
from oddstui.tui.event.price_history import PriceHistory
from oddstui.tui.text import clean

#: Bookmakers drawn together: the highlighted one and the next ones in the grid.
OVERLAID = 4

if TYPE_CHECKING:
    from oddstui.tui.app import OddsApp


class MovementModal(ModalScreen[None]):
    """The price history of one market and line, a line per bookmaker.

    | key | action |
    |---|---|
    | `←` / `→` | the other sides |
    | `escape` / `g` | close |
    """

    if TYPE_CHECKING:
        app = getters.app(OddsApp)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Close", id="movement-close"),
        Binding("g", "dismiss", "Close", show=False, id="movement-close-g"),
        Binding("right,l", "side(1)", "Next side", show=False, id="movement-next-side"),
        Binding("left,h", "side(-1)", "Previous side", show=False, id="movement-previous-side"),
    ]

    def __init__(
        self,
        event_id: int,
        title: str,
        bookmaker: str,
        market: str,
        line: LineKey,
        sides: list[str],
        others: list[str] | None = None,
        closed: bool = False,
    ) -> None:
        super().__init__()
        self.event_id = event_id
        self.title_text = title
        #: The highlighted bookmaker, drawn first, and the others overlaid.
        self.bookmaker = bookmaker
        self.others = [book for book in others or [] if book != bookmaker][: OVERLAID - 1]
        self.market = market
        self.line = line
        self.sides = sides
        #: True once the event is over: the last prices are the closing ones.
        self.closed = closed

    def compose(self) -> ComposeResult:
        with Vertical(id="movement-box"):
            heading = Text("Odds movement  ", style="bold")
            heading.append(clean(self.title_text))
            yield Static(heading, classes="movement-title")
            what = Text(clean(self.market))
            line = price_rows.line_text(self.market, self.line)
            if line != "–":
                what.append(f" {line}")
            what.append(" · ").append(clean(", ".join([self.bookmaker, *self.others])))
            yield Static(what, classes="movement-what")
            yield PriceHistory()

    def on_mount(self) -> None:
        self.query_one(PriceHistory).show_message("Loading the price history…")
        self.run_worker(
            self._load(), group="movement", description="odds movement", exit_on_error=False
        )

    @property
    def odds_format(self) -> OddsFormat:
        fmt = self.app.settings.odds_format
        return fmt if fmt in ODDS_FORMATS else "decimal"

    def action_side(self, step: int) -> None:
        self.query_one(PriceHistory).next_side(step)

    async def _load(self) -> None:
        chart = self.query_one(PriceHistory)
        hub = self.app.hub
        cache = movement_cache(hub.api)
        books = [self.bookmaker, *self.others]
        answers = await asyncio.gather(
            *(cache.get(self.event_id, book, self.market, self.line[0]) for book in books),
            return_exceptions=True,
        )
        hub.note_budget()
        histories: dict[str, list[Any]] = {}
        problems: list[str] = []
        for book, answer in zip(books, answers, strict=True):
            if isinstance(answer, BudgetLow):
                problems.append(f"not fetched: {answer}")
            elif isinstance(answer, OddsApiError):
                problems.append(f"{clean(book)}: {clean(answer)}")
            elif isinstance(answer, BaseException):
                raise answer
            else:
                histories[book] = side_moves(self._of_line(answer), self.sides)
        labels = {side: price_rows.side_label(side) for side in self.sides}
        for moves in histories.values():
            labels.update({m.side: price_rows.side_label(m.side) for m in moves})
        chart.show(histories, labels, self.odds_format, closed=self.closed)
        if problems and not any(histories.values()):
            chart.show_message("Could not load the price history: " + "; ".join(problems))

    def _of_line(self, movements: Movements) -> Movements:
        label = self.line[1]
        return movements if label is None else _only_label(movements, label)


def _only_label(movements: Movements, label: str) -> Movements:
    """A player prop: the history holds every player's line; keep this player's."""
    from dataclasses import replace

    ticks = tuple(t for t in movements.ticks if t.label == label)
    opening = movements.opening if movements.opening and movements.opening.label == label else None
    return replace(movements, ticks=ticks, opening=opening)


def open_movement(screen: Any) -> None:
    """`g` on the Event screen: the history of the highlighted bookmaker's row and the next."""
    from oddstui.tui.event.price_grid import PriceGrid

    market, line = screen.market, screen.line
    grid = screen.query_one(PriceGrid)
    bookmaker = grid.highlighted_key()
    if market is None or line is None or bookmaker is None:
        screen.notify("No prices to chart yet.", severity="warning")
        return
    rows = list(grid.row_keys)
    at = rows.index(bookmaker) if bookmaker in rows else 0
    others = rows[at + 1 :] + rows[:at]  # the rows below the highlighted one first
    event = screen.event
    title = event.title if event is not None else f"event {screen.event_id}"
    closed = event is not None and event.status in ("settled", "cancelled")
    screen.app.push_screen(
        MovementModal(
            screen.event_id, title, bookmaker, market, line, list(screen._sides), others, closed
        )
    )
