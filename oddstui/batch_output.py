"""What the batch commands print: JSON of the SDK's records, or a compact plain-text table.

Network text is plain text here (control characters removed, no markup) and cut to a width.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

import msgspec

from oddstui.api.models import (
    ArbitrageBet,
    DroppingOdds,
    Event,
    EventSummary,
    Movements,
    OddsRecord,
    ValueBet,
)
from oddstui.api.redact import plain
from oddstui.book.formats import book_places, format_price
from oddstui.book.match_clock import clock_text


def jsonable(value: Any) -> Any:
    """The SDK's records as JSON values: dataclasses and structs as objects, times as
    ISO-8601 UTC."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, msgspec.Struct):  # Line and MarketQuote
        return {name: jsonable(item) for name, item in msgspec.structs.asdict(value).items()}
    if isinstance(value, datetime):
        spec = "milliseconds" if value.microsecond else "seconds"
        return value.isoformat(timespec=spec).replace("+00:00", "Z")
    if isinstance(value, dict):
        return {str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(item) for item in value]
    return value


def emit(args: argparse.Namespace, data: Any, render: Callable[[Any], list[str]]) -> None:
    try:
        if args.json:
            sys.stdout.write(json.dumps(jsonable(data), ensure_ascii=False) + "\n")
        else:
            lines = render(data)
            sys.stdout.write("\n".join(lines) + "\n" if lines else "nothing to show\n")
        sys.stdout.flush()
    except BrokenPipeError:  # `oddstui arbs | head -1`
        pass


def _table(rows: Sequence[Sequence[str]]) -> list[str]:
    if not rows:
        return []
    cells = [[plain(cell, 160) for cell in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]))]
    return [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in cells
    ]


def _price(value: float, places: int | None = None) -> str:
    """Decimal odds with the book's precision: `1.90`, `2.228` (never `1.9`)."""
    return format_price(value, "decimal", places)


def _match(event: EventSummary | None, event_id: int) -> str:
    return f"{event.home} v {event.away}" if event else f"event {event_id}"


def _line(market: str, hdp: float | None) -> str:
    """A handicap is signed (`-1.5`); a total is not (`2.5`)."""
    if hdp is None:
        return ""
    handicap = any(word in market for word in ("Spread", "Handicap", "Asian"))
    return f"{hdp:+g}" if handicap else f"{hdp:g}"


def _market(name: str, hdp: float | None) -> str:
    return f"{name} {_line(name, hdp)}".rstrip()


def arb_rows(arbs: Iterable[ArbitrageBet]) -> list[str]:
    rows = [["PROFIT", "EVENT", "MARKET", "LEGS"]]
    for arb in arbs:
        legs = ", ".join(f"{leg.side} {_price(leg.odds)} @ {leg.bookmaker}" for leg in arb.legs)
        rows.append(
            [
                f"{arb.profit_margin:.2f}%",
                _match(arb.event, arb.event_id),
                _market(arb.market_name, arb.market_hdp),
                legs,
            ]
        )
    return _table(rows) if len(rows) > 1 else []


def value_rows(bets: Iterable[ValueBet]) -> list[str]:
    rows = [["EV", "EVENT", "MARKET", "SIDE", "PRICE", "BOOKMAKER"]]
    for bet in bets:
        price = bet.bookmaker_prices.get(bet.bet_side)
        rows.append(
            [
                f"{bet.expected_value:.2f}%",
                _match(bet.event, bet.event_id),
                _market(bet.market_name, bet.market_hdp),
                bet.bet_side,
                "-" if price is None else _price(price),
                bet.bookmaker,
            ]
        )
    return _table(rows) if len(rows) > 1 else []


def odds_rows(record: OddsRecord) -> list[str]:
    event = record.event
    score = f"{event.scores.home}-{event.scores.away}"
    header = plain(f"{event.home} v {event.away}  {event.status}  {score}", 120)
    rows = [["BOOKMAKER", "MARKET", "LINE", "PRICES"]]
    for book, markets in sorted(record.bookmakers.items()):
        places = book_places(
            price for market in markets for line in market.lines for price in line.prices.values()
        )
        for market in markets:
            for line in market.lines:
                parts = (line.label or "", _line(market.name, line.hdp))
                where = " ".join(part for part in parts if part)
                prices = "  ".join(f"{side} {_price(p, places)}" for side, p in line.prices.items())
                rows.append([book, market.name, where, prices])
    return [header, *_table(rows)]


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}%"


def dropping_rows(items: Iterable[DroppingOdds]) -> list[str]:
    rows = [["DROP", "EVENT", "MARKET", "SIDE", "OPEN", "NOW", "12H", "24H", "48H"]]
    for item in items:
        market = " ".join(
            part
            for part in (
                item.market_name,
                item.market_label or "",
                _line(item.market_name, item.market_hdp),
            )
            if part
        )
        rows.append(
            [
                _percent(item.drop_since_opening),
                _match(item.event, item.event_id),
                market,
                item.bet_side,
                _price(item.opening),
                _price(item.current),
                _percent(item.drop_12h),
                _percent(item.drop_24h),
                _percent(item.drop_48h),
            ]
        )
    return _table(rows) if len(rows) > 1 else []


def _tick_time(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S")


def movement_rows(movements: Movements) -> list[str]:
    """The opening price, then every move, oldest first (times in UTC)."""
    rows = [["TIME (UTC)", "", "LINE", "PRICES"]]
    ticks = [("opening", movements.opening)] if movements.opening else []
    ticks += [("", tick) for tick in movements.ticks]
    for what, tick in ticks:
        assert tick is not None
        line = " ".join(
            part for part in (tick.label or "", "" if tick.hdp is None else f"{tick.hdp:g}") if part
        )
        prices = "  ".join(f"{side} {_price(price)}" for side, price in tick.prices.items())
        rows.append([_tick_time(tick.timestamp_ms), what, line, prices])
    header = plain(f"event {movements.event_id} at {movements.bookmaker}", 120)
    return [header, *_table(rows)] if len(rows) > 1 else []


def live_rows(events: Iterable[Event]) -> list[str]:
    """The live matches with their ids, the busiest (most bookmakers) first."""
    rows = [["ID", "SPORT", "EVENT", "SCORE", "CLOCK", "BOOKS", "LEAGUE"]]
    ordered = sorted(events, key=lambda e: (-(e.bookmaker_count or 0), e.sport.slug, e.id))
    for event in ordered:
        clock = event.clock
        shown = (
            clock_text(
                event.sport.slug,
                clock.period,
                clock.played_seconds,
                clock.running,
                clock.status_detail,
                dict(event.scores.periods),
            )
            if clock
            else ""
        )
        rows.append(
            [
                str(event.id),
                event.sport.slug,
                f"{event.home} v {event.away}",
                f"{event.scores.home}-{event.scores.away}",
                shown,
                "-" if event.bookmaker_count is None else str(event.bookmaker_count),
                event.league.name,
            ]
        )
    return _table(rows) if len(rows) > 1 else []
