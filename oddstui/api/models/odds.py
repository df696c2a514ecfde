"""Odds records: lines and market quotes per bookmaker, and a line's movement history."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import msgspec

from oddstui.api.errors import MalformedRecord
from oddstui.api.models.events import Event, parse_event
from oddstui.api.models.fields import (
    ENTRY_META,
    MISSING_PRICES,
    as_float,
    as_id_text,
    as_int,
    as_list,
    as_mapping,
    as_opt_time,
    as_str,
    as_url,
    malformed,
)

_KNOWN_SIDES = frozenset(
    {"home", "draw", "away", "over", "under", "yes", "no", "layHome", "layDraw", "layAway"}
)


class Line(msgspec.Struct, frozen=True, gc=False):
    """One line of a market: a handicap/total `hdp` and/or a `label` (player), and its prices.

    Lines and quotes are msgspec structs rather than dataclasses: the feed makes tens of
    thousands a second, a struct is built ten times faster, and `gc=False` keeps the book's
    millions of them out of the cyclic garbage collector's scans (they hold no references that
    could form a cycle).
    """

    hdp: float | None
    label: str | None
    prices: dict[str, float]
    max: float | None

    @property
    def key(self) -> tuple[float | None, str | None]:
        return (self.hdp, self.label)


class MarketQuote(msgspec.Struct, frozen=True, gc=False):
    """One bookmaker's quote of one market: its lines in the order received."""

    name: str
    updated_at: datetime | None
    lines: tuple[Line, ...]


@dataclass(frozen=True, slots=True)
class OddsRecord:
    event: Event
    bookmakers: dict[str, tuple[MarketQuote, ...]]
    urls: dict[str, str | None]
    bookmaker_ids: dict[str, str]


def _bad_price(market: str, side: str) -> MalformedRecord:
    return malformed(f"{market}.{side} is not a price")


def parse_line(value: Any, market: str = "market") -> Line:
    if not isinstance(value, dict):
        raise malformed(f"{market} entry is not an object")
    prices: dict[str, float] = {}
    # The hot path of feed ingest: no per-side helper calls or message strings unless it fails.
    for side, raw in value.items():
        if side in ENTRY_META:
            continue
        kind = type(raw)
        if kind is str:
            try:
                price = float(raw)
            except ValueError:
                if raw.strip() in MISSING_PRICES or side not in _KNOWN_SIDES:
                    continue
                raise _bad_price(market, side) from None
        elif kind is float or kind is int:
            try:
                price = float(raw)
            except OverflowError:
                price = math.inf
        elif raw is None or side not in _KNOWN_SIDES:
            continue
        else:
            raise _bad_price(market, side)
        if 1.0 < price < math.inf:
            prices[side] = price
        elif not math.isfinite(price):
            if side in _KNOWN_SIDES:
                raise _bad_price(market, side)
        # A price of 1.00 or less is a suspended side (books show 1.00 or 0): left out.
    hdp = value.get("hdp")
    label = value.get("label")
    maximum = value.get("max")
    return Line(
        hdp=None if hdp is None else as_float(hdp, f"{market}.hdp"),
        label=None if label is None else str(label),
        prices=prices,
        max=None if maximum is None else as_float(maximum, f"{market}.max"),
    )


def parse_market(value: Any) -> MarketQuote:
    """`{name, updatedAt, odds: [entry, ...]}` as in GET /odds and the feed's `markets`."""
    if not isinstance(value, dict):
        raise malformed("market is not an object")
    name = value.get("name")
    if not isinstance(name, str) or not name:
        raise malformed("market has no name")
    entries = value.get("odds")
    if entries is None:
        entries = ()
    elif not isinstance(entries, list):
        raise malformed(f"{name}.odds is not a list")
    return MarketQuote(
        name=name,
        updated_at=as_opt_time(value.get("updatedAt"), f"{name}.updatedAt"),
        lines=tuple([parse_line(entry, name) for entry in entries]),
    )


def parse_markets(value: Any) -> tuple[MarketQuote, ...]:
    """A bookmaker's list of markets; `null` is none."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise malformed("markets is not a list")
    return tuple([parse_market(market) for market in value])


def parse_odds_record(value: Any) -> OddsRecord:
    raw = as_mapping(value, "odds record")
    bookmakers: dict[str, tuple[MarketQuote, ...]] = {}
    raw_books = raw.get("bookmakers")
    if raw_books is not None:
        for book, markets in as_mapping(raw_books, "bookmakers").items():
            bookmakers[str(book)] = parse_markets(markets)
    urls: dict[str, str | None] = {}
    raw_urls = raw.get("urls")
    if raw_urls is not None:
        for book, link in as_mapping(raw_urls, "urls").items():
            urls[str(book)] = as_url(link)
    ids: dict[str, str] = {}
    raw_ids = raw.get("bookmakerIds")
    if raw_ids is not None:
        for book, fixture in as_mapping(raw_ids, "bookmakerIds").items():
            if fixture is not None:
                ids[str(book)] = as_id_text(fixture, "bookmakerIds value")
    return OddsRecord(event=parse_event(raw), bookmakers=bookmakers, urls=urls, bookmaker_ids=ids)


@dataclass(frozen=True, slots=True)
class Tick:
    """One price state in a movement history; `timestamp_ms` is Unix milliseconds."""

    timestamp_ms: int
    hdp: float | None
    label: str | None
    prices: dict[str, float]


@dataclass(frozen=True, slots=True)
class Movements:
    event_id: int
    bookmaker: str
    opening: Tick | None
    ticks: tuple[Tick, ...]


def parse_tick(value: Any) -> Tick:
    line = parse_line(value, "tick")
    raw = as_mapping(value, "tick")
    return Tick(
        timestamp_ms=as_int(raw.get("timestamp"), "tick.timestamp"),
        hdp=line.hdp,
        label=line.label,
        prices=line.prices,
    )


def parse_movements(value: Any) -> Movements:
    raw = as_mapping(value, "movements")
    event_id = raw.get("eventid", raw.get("eventId"))
    opening = raw.get("opening")
    return Movements(
        event_id=as_int(event_id, "movements.eventid"),
        bookmaker=as_str(raw.get("bookmaker", ""), "movements.bookmaker"),
        opening=None if opening is None else parse_tick(opening),
        ticks=tuple(parse_tick(tick) for tick in as_list(raw.get("movements"), "movements")),
    )
