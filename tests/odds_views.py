"""Plain comparable views of odds, so tests can assert "the book equals the service" (test
equipment: no code of the product needs them).

``record_view(record)`` turns a REST odds record (GET /odds, /odds/multi) into the same shape
that ``book_view(book, event_id)`` makes from an ``OddsBook``::

    {bookmaker: {market: {(hdp, label): (prices by side, max)}}}

Bookmakers without markets are left out of both, so "no markets" and "absent" compare equal.
"""

from __future__ import annotations

from collections.abc import Iterable

from oddstui.api.models import Line, MarketQuote, OddsRecord
from oddstui.book.oddsbook import OddsBook
from oddstui.book.state import LineKey

LineView = tuple[dict[str, float], float | None]
OddsView = dict[str, dict[str, dict[LineKey, LineView]]]


def _lines(lines: Iterable[Line]) -> dict[LineKey, LineView]:
    return {line.key: (dict(line.prices), line.max) for line in lines}


def _markets(quotes: Iterable[MarketQuote]) -> dict[str, dict[LineKey, LineView]]:
    return {quote.name: _lines(quote.lines) for quote in quotes}


def record_view(record: OddsRecord) -> OddsView:
    """The odds of a REST record, in the comparable shape."""
    return {bookie: _markets(quotes) for bookie, quotes in record.bookmakers.items() if quotes}


def book_view(book: OddsBook, event_id: int) -> OddsView:
    """The odds the book holds for one event, in the comparable shape."""
    state = book.event(event_id)
    if state is None:
        return {}
    return {
        bookie: {name: _lines(market.quote.lines) for name, market in held.markets.items()}
        for bookie, held in state.books.items()
        if held.markets
    }


def view_differences(expected: OddsView, actual: OddsView, limit: int = 10) -> list[str]:
    """Human-readable differences between two views (empty when equal), for test messages."""
    found: list[str] = []
    for bookie in sorted(set(expected) | set(actual)):
        want, got = expected.get(bookie), actual.get(bookie)
        if want is None or got is None:
            found.append(f"{bookie}: {'missing' if got is None else 'unexpected'}")
            continue
        for market in sorted(set(want) | set(got)):
            if want.get(market) != got.get(market):
                found.append(
                    f"{bookie}/{market}: expected {want.get(market)}, got {got.get(market)}"
                )
        if len(found) >= limit:
            break
    return found[:limit]
