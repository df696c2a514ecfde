"""The figures of the Event screen's grid, read from an `OddsBook`: one row per bookmaker.

Pure code (no textual): which markets and lines exist, which one is the main line, and for one
market and line, each bookmaker's prices, the best price per side, moves still flashing, the
margin and the price age. The grid turns these figures into cells.

Exchanges (`book.exchange`): lay prices are their own sides, never in a margin and best when
lowest; an exchange's back prices count net of the trader's commission setting.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from oddstui.book.exchange import (
    back_margin,
    best_of_books,
    commission_rate,
    is_lay,
    net_back,
)
from oddstui.book.oddsbook import OddsBook
from oddstui.book.state import LineKey
from oddstui.tui.event.fair_edges import fair_line
from oddstui.tui.event.market_order import market_order
from oddstui.tui.text import clean

#: How long a changed price shows ▲/▼, in seconds.
FLASH_SECONDS = 3.0

# Sides in the order a trader reads them; unknown sides follow in name order.
SIDE_ORDER = (
    "home",
    "draw",
    "away",
    "over",
    "under",
    "yes",
    "no",
    "odd",
    "even",
    "layHome",
    "layDraw",
    "layAway",
)
SIDE_LABELS = {
    "home": "Home",
    "draw": "Draw",
    "away": "Away",
    "over": "Over",
    "under": "Under",
    "yes": "Yes",
    "no": "No",
    "odd": "Odd",
    "even": "Even",
    "layHome": "Lay 1",
    "layDraw": "Lay X",
    "layAway": "Lay 2",
}


@dataclass(frozen=True, slots=True)
class PriceFigure:
    """One bookmaker's price on one side."""

    price: float | None
    move: int = 0  # +1 / -1 while the last change still flashes, else 0
    best: bool = False


@dataclass(frozen=True, slots=True)
class GridRow:
    """One bookmaker's line of the grid."""

    bookmaker: str
    url: str | None
    prices: tuple[PriceFigure, ...]  # in the order of the sides asked for
    margin: float | None  # the bookmaker's hold on this line, when every side is quoted
    # Seconds since the bookmaker's `updatedAt` of the market, by the service's clock (since any
    # price of the line last changed here, while that clock is unknown).
    age: float | None
    stale: bool
    changed: float  # receive stamp of the message behind the newest price change shown


def side_order(sides: Iterable[str]) -> list[str]:
    rank = {side: i for i, side in enumerate(SIDE_ORDER)}
    return sorted(set(sides), key=lambda side: (rank.get(side, len(rank)), side))


def side_label(side: str) -> str:
    """`Home`, `Over`, and an exchange's lay of a side in two words: `Lay Over`, not `Layover`."""
    if side not in SIDE_LABELS and side.startswith("lay") and side[3:4].isupper():
        return f"Lay {side_label(side[3].lower() + side[4:])}"
    return SIDE_LABELS.get(side) or clean(side).capitalize()


def line_text(market: str, line: LineKey) -> str:
    """`-1.5` for a handicap, `2.5` for a total, the label (player) first when there is one."""
    hdp, label = line
    parts = []
    if label:
        parts.append(clean(label))
    if hdp is not None:
        signed = "spread" in market.lower() or "handicap" in market.lower()
        parts.append(f"{hdp:+g}" if signed else f"{hdp:g}")
    return " ".join(parts) if parts else "–"


def main_line(book: OddsBook, event_id: int, market: str) -> LineKey | None:
    """The line most bookmakers quote; among those, the most balanced (prices closest)."""
    best: tuple[int, float, LineKey] | None = None
    for line in book.lines(event_id, market):
        quotes = book.quotes(event_id, market, line)
        balance = _balance(quotes.values())
        candidate = (len(quotes), -balance, line)
        if best is None or candidate[:2] > best[:2]:
            best = candidate
    return None if best is None else best[2]


def _balance(quotes: Iterable[dict[str, float]]) -> float:
    """How far apart the first two sides are, on average (0 for an even line)."""
    gaps = []
    for prices in quotes:
        values = [prices[side] for side in side_order(prices)[:2]]
        if len(values) == 2:
            gaps.append(abs(math.log(values[0] / values[1])))
    return sum(gaps) / len(gaps) if gaps else math.inf


def sides_of(book: OddsBook, event_id: int, market: str, line: LineKey) -> list[str]:
    quotes = book.quotes(event_id, market, line)
    return side_order(side for prices in quotes.values() for side in prices)


def grid_rows(
    book: OddsBook,
    event_id: int,
    market: str,
    line: LineKey,
    sides: list[str],
    now: float,
    *,
    stale_after: float,
    trusted: bool = True,
    commission: float = 0.0,
    service_now: float | None = None,
) -> list[GridRow]:
    """Every bookmaker quoting this market (on any line), in name order.

    `now` is on the book's clock (the feed's receive stamps); `service_now` is the service's
    time then (epoch seconds; `OddsBook.service_clock`), which ages count on. A bookmaker that
    quotes the market but not this line gets a row of missing prices, so rows don't come and go
    as lines move. `commission` is the exchanges' rate on winnings (0.05 for 5 %). A price older
    than `stale_after` seconds is stale (dimmed; the settings say how old, live and pre-match).
    """
    state = book.event(event_id)
    if state is None:
        return []
    best = best_of_books(book.quotes(event_id, market, line), sides, commission)
    rows = []
    for name in sorted(state.books):
        bookmaker = state.books[name]
        quote = bookmaker.markets.get(market)
        if quote is None:
            continue
        entry = quote.line(line)
        prices = entry.prices if entry is not None else {}
        rate = commission_rate(name, commission, prices)
        figures = []
        changed = -math.inf
        for side in sides:
            price = prices.get(side)
            if price is None:
                figures.append(PriceFigure(None))
                continue
            changed = max(changed, quote.changed_at(line, side))
            move = quote.move(line, side)
            flashing = move is not None and move.direction and now - move.since < FLASH_SECONDS
            top = best.get(side)
            if top is None:
                is_best = False
            elif is_lay(side):
                is_best = price <= top
            else:
                is_best = net_back(price, rate) >= top
            figures.append(
                PriceFigure(price, move.direction if flashing and move is not None else 0, is_best)
            )
        hold = back_margin(prices, sides, rate)
        age = max(now - changed, 0.0) if changed > -math.inf else None
        updated = quote.updated_at
        if age is not None and service_now is not None and updated is not None:
            age = max(service_now - updated.timestamp(), 0.0)
        rows.append(
            GridRow(
                bookmaker=name,
                url=bookmaker.url,
                prices=tuple(figures),
                margin=hold,
                age=age,
                stale=not trusted or (age is not None and age > stale_after),
                changed=changed if changed > -math.inf else 0.0,
            )
        )
    return rows


def age_text(seconds: float | None) -> str:
    """`4s`, `15s`, `12m`, `3h`: coarser as prices age, so the column changes rarely (past ten
    seconds, in steps of five)."""
    if seconds is None:
        return "–"
    if seconds < 10:
        return f"{int(seconds)}s"
    if seconds < 60:
        return f"{int(seconds) // 5 * 5}s"
    if seconds < 3600:
        return f"{int(seconds // 60)}m"
    if seconds < 86400:
        return f"{int(seconds // 3600)}h"
    return f"{int(seconds // 86400)}d"


def margin_text(value: float | None) -> str:
    return "–" if value is None else f"{value * 100:.1f}%"


@dataclass(frozen=True, slots=True)
class PriceView:
    """Everything the Event grid shows of one event, read from the book in one go."""

    markets: tuple[str, ...]  # in reading order
    market: str | None  # the market shown (None: the book has no prices)
    lines: tuple[LineKey, ...]
    line: LineKey | None
    sides: tuple[str, ...]
    rows: tuple[GridRow, ...]
    has_header: bool  # the book knows the event (so no prices means no coverage)
    fair: tuple[float | None, ...] = ()  # per side, from a sharp book (`fair_edges`)
    fair_from: str | None = None  # the sharp book the fair line comes from


def price_view(
    book: OddsBook,
    event_id: int,
    sport: str | None,
    market: str | None,
    line: LineKey | None,
    now: float,
    *,
    stale_after: float,
    trusted: bool,
    commission: float = 0.0,
    markets: tuple[str, ...] | None = None,
) -> PriceView:
    """The grid's figures for `market` and `line` (the main market and line when they are gone
    or not given). `now` is on the book's clock; ages count on the service's. `markets`: the
    event's markets in reading order, when the caller has just read them."""
    state = book.event(event_id)
    has_header = state is not None and state.header is not None
    if markets is None:
        markets = tuple(market_order(book.market_names(event_id), sport))
    if not markets:
        return PriceView((), None, (), None, (), (), has_header)
    if market not in markets:
        market, line = ("ML" if "ML" in markets else markets[0]), None
    assert market is not None
    lines = tuple(book.lines(event_id, market))
    if line not in lines:
        line = main_line(book, event_id, market)
    if line is None:
        return PriceView(markets, market, lines, None, (), (), has_header)
    sides = sides_of(book, event_id, market, line)
    service_now = book.service_clock.now(now)
    rows = grid_rows(
        book,
        event_id,
        market,
        line,
        sides,
        now,
        stale_after=stale_after,
        trusted=trusted,
        commission=commission,
        service_now=service_now,
    )
    fair, fair_from = fair_line(book.quotes(event_id, market, line), sides)
    return PriceView(
        markets, market, lines, line, tuple(sides), tuple(rows), has_header, fair, fair_from
    )
