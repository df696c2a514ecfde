"""Closing odds of a settled event, from GET /historical/odds, in place of the live grid.

Rows are (market, line, bookmaker) with the prices of every side on one line; the markets come
in the order the trader reads them (ML, Spread, Totals, then the rest).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import getters
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from oddstui.api.errors import OddsApiError
from oddstui.api.models import OddsRecord
from oddstui.book.formats import OddsFormat, format_price
from oddstui.tui.event import price_rows
from oddstui.tui.event.market_order import market_order
from oddstui.tui.kit.prices import odds_format
from oddstui.tui.text import clean, plain

#: The label the trader sees: these prices are final, not live.
LABEL = "closing"

if TYPE_CHECKING:
    from oddstui.tui.app import OddsApp


def closing_rows(
    record: OddsRecord, fmt: OddsFormat = "decimal"
) -> list[tuple[str, str, str, str]]:
    """(market, line, bookmaker, prices) per line, markets in reading order, books by name."""
    by_market: dict[str, list[tuple[str, str, str]]] = {}
    for bookmaker in sorted(record.bookmakers):
        for quote in record.bookmakers[bookmaker]:
            for line in quote.lines:
                sides = price_rows.side_order(line.prices)
                prices = "  ".join(
                    f"{price_rows.side_label(s)} {format_price(line.prices[s], fmt)}" for s in sides
                )
                text = price_rows.line_text(quote.name, line.key)
                by_market.setdefault(quote.name, []).append((text, clean(bookmaker), prices))
    rows = []
    for market in market_order(by_market, record.event.sport.slug):
        for line_text, bookmaker, prices in by_market[market]:
            rows.append((clean(market), line_text, bookmaker, prices))
    return rows


class ClosingOdds(Vertical):
    """The closing prices of one event, loaded once when shown."""

    if TYPE_CHECKING:
        app = getters.app(OddsApp)

    DEFAULT_CSS = """
    ClosingOdds { height: 1fr; }
    ClosingOdds DataTable { height: 1fr; }
    ClosingOdds .closing-title { height: 1; }
    """

    def __init__(self, event_id: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.event_id = event_id
        #: The rows shown (tests read them).
        self.rows: list[tuple[str, str, str, str]] = []

    def compose(self) -> ComposeResult:
        yield Static(Text(f"Closing odds ({LABEL})", style="bold"), classes="closing-title")
        table: DataTable[Text] = DataTable(cursor_type="row", zebra_stripes=True)
        table.add_column("Market", width=10, key="market")
        table.add_column("Line", width=6, key="line")
        table.add_column("Bookmaker", width=16, key="book")
        table.add_column(f"Prices ({LABEL})", key="prices")
        yield table
        yield Static("Loading the closing odds…", classes="closing-message")

    def on_mount(self) -> None:
        self.run_worker(
            self._load(), group="closing", description="closing odds", exit_on_error=False
        )

    async def _load(self) -> None:
        hub = self.app.hub
        message = self.query_one(".closing-message", Static)
        try:
            selected = await hub.api.selected_bookmakers()
            books = list(selected.bookmakers)
            record = await hub.api.historical_odds(self.event_id, books) if books else None
        except OddsApiError as error:
            message.update(Text(f"Could not load the closing odds: {clean(error)}"))
            return
        finally:
            hub.note_budget()
        self.rows = closing_rows(record, odds_format(self.app)) if record is not None else []
        if not self.rows:
            message.update(Text("No closing odds from the selected bookmakers."))
            return
        message.display = False
        table = self.query_one(DataTable)
        for market, line, bookmaker, prices in self.rows:
            table.add_row(plain(market), Text(line), plain(bookmaker), Text(prices))
        table.focus()


def show_closing(screen: Any) -> None:
    """On the Event screen of a settled event: the closing odds in place of the live grid."""
    if screen.query(ClosingOdds):
        return
    for selector in ("#market-bar", "#price-grid", "#no-coverage"):
        screen.query_one(selector).display = False
    screen.mount(ClosingOdds(screen.event_id, id="closing"), after="#no-coverage")
