"""Batch commands for scripts and tmux status lines: `oddstui arbs|value|odds [--json]`.

Exit status: 0 on success, 2 on bad input (flags, config, no key), 1 when the service fails.
Errors are one line on stderr. `--json` prints the SDK's records (snake_case fields, times in
ISO-8601 UTC); without it a compact plain-text table is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

import msgspec

from oddstui.api.errors import (
    MalformedRecord,
    OddsApiError,
    RequestRejected,
    ServiceError,
    ServiceUnavailable,
)
from oddstui.api.models import ArbitrageBet, EventSummary, OddsRecord, ValueBet
from oddstui.api.redact import plain
from oddstui.api.rest import ApiClient, check_base_url
from oddstui.api.validate import MAX_BOOKMAKERS
from oddstui.book.formats import book_places, format_price
from oddstui.config import (
    KEY_ENV,
    PUBLIC_BASE_URL,
    ConfigError,
    config_path,
    load_settings,
    resolve_api_key,
)


class BadInput(Exception):
    """Bad flags or configuration: one line, exit status 2."""


def run_batch(args: argparse.Namespace) -> int:
    try:
        base_url, key = _connection(args)
        return asyncio.run(_run(args, base_url, key))
    except (BadInput, ConfigError, RequestRejected) as error:
        return _fail(str(error), 2)
    except (ServiceError, ServiceUnavailable, MalformedRecord, OddsApiError) as error:
        return _fail(str(error), 1)


def _fail(message: str, status: int) -> int:
    sys.stderr.write(f"oddstui: {plain(message)}\n")
    return status


def _connection(args: argparse.Namespace) -> tuple[str, str]:
    settings = load_settings()
    base = args.base_url or settings.base_url or PUBLIC_BASE_URL
    try:
        base = check_base_url(base)
    except RequestRejected as error:
        raise BadInput(f"--base-url: {error}") from None
    key = resolve_api_key(settings)
    if not key:
        raise BadInput(f"no API key: set {KEY_ENV} or api_key in {config_path()}")
    return base, key


async def _run(args: argparse.Namespace, base_url: str, key: str) -> int:
    async with ApiClient(base_url, key) as api:
        if args.command == "arbs":
            books = await _bookmakers(api, args.bookmakers)
            arbs = await api.arbitrage_bets(books, limit=args.limit, include_event_details=True)
            _emit(args, arbs, _arb_rows)
        elif args.command == "value":
            bets = await api.value_bets(
                args.bookmaker, sport=args.sport, include_event_details=True
            )
            _emit(args, bets, _value_rows)
        elif args.command == "odds":
            books = await _bookmakers(api, args.bookmakers)
            record = await _odds(api, args.event_id, books)
            _emit(args, record, _odds_rows)
        else:
            raise BadInput(f"unknown command {args.command!r}")
    return 0


async def _bookmakers(api: ApiClient, flag: str | None) -> list[str]:
    if flag is not None:
        names = [name.strip() for name in flag.split(",")]
        if not all(names):
            raise BadInput("--bookmakers: a comma-separated list of names, none empty")
        return names
    selection = await api.selected_bookmakers()
    if not selection.bookmakers:
        raise BadInput("no bookmakers selected on this account; pass --bookmakers A,B")
    return list(selection.bookmakers)


async def _odds(api: ApiClient, event_id: int, books: list[str]) -> OddsRecord:
    """GET /odds, in chunks of 30 bookmakers when the selection is larger, merged."""
    chunks = [books[i : i + MAX_BOOKMAKERS] for i in range(0, len(books), MAX_BOOKMAKERS)]
    records = [await api.odds(event_id, chunk) for chunk in chunks]
    first = records[0]
    for other in records[1:]:
        first.bookmakers.update(other.bookmakers)
        first.urls.update(other.urls)
        first.bookmaker_ids.update(other.bookmaker_ids)
    return first


# --------------------------------------------------------------------------- output


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


def _emit(args: argparse.Namespace, data: Any, render: Callable[[Any], list[str]]) -> None:
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


def _arb_rows(arbs: Iterable[ArbitrageBet]) -> list[str]:
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


def _value_rows(bets: Iterable[ValueBet]) -> list[str]:
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


def _odds_rows(record: OddsRecord) -> list[str]:
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
