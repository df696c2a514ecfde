"""The `markets` of a feed odds message, from decoded JSON into `MarketQuote`s.

This is the general path: it takes whatever JSON the line held and agrees with the models'
`parse_line` on every input (a property test checks it). Most messages never come here; see
`oddstui.api.odds_decoder`.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from oddstui.api.errors import MalformedRecord
from oddstui.api.models import _KNOWN_SIDES, Line, MarketQuote, parse_line, parse_time

# The common shape of a market entry: known sides holding price strings, a numeric hdp/max and
# maybe a label. `fast_line` handles exactly that and hands anything else to the models'
# `parse_line`, so both always agree (a property test checks it); it is ~3x quicker.
_SIDES = _KNOWN_SIDES
_INF = math.inf


def fast_line(entry: Any, market: str) -> Line:
    if type(entry) is not dict:
        return parse_line(entry, market)
    prices: dict[str, float] = {}
    hdp: float | None = None
    label: str | None = None
    maximum: float | None = None
    for side, raw in entry.items():
        kind = type(raw)
        if side in _SIDES and kind is str:
            try:
                price = float(raw)
            except ValueError:
                return parse_line(entry, market)
            if 1.0 < price < _INF:
                prices[side] = price
            elif not -_INF < price <= 1.0:  # inf, -inf, nan: let the models decide
                return parse_line(entry, market)
        elif side == "hdp" and (kind is float or kind is int) and -_INF < raw < _INF:
            hdp = float(raw)
        elif side == "max" and (kind is float or kind is int) and -_INF < raw < _INF:
            maximum = float(raw)
        elif side == "label" and kind is str:
            label = raw
        else:
            return parse_line(entry, market)
    return Line(hdp, label, prices, maximum)


def _checked(market: Any) -> tuple[str, list[Any] | tuple[()], Any]:
    """The name, raw `odds` entries and raw `updatedAt` of one market object."""
    if type(market) is not dict:
        raise MalformedRecord("market is not an object")
    name = market.get("name")
    if type(name) is not str or not name:
        raise MalformedRecord("market has no name")
    entries = market.get("odds")
    if entries is None:
        entries = ()
    elif type(entries) is not list:
        raise MalformedRecord(f"{name}.odds is not a list")
    return name, entries, market.get("updatedAt")


def _updated_at(raw: Any) -> datetime | None:
    return None if raw is None or raw == "" else parse_time(raw, "updatedAt")


def parse_markets(value: Any) -> tuple[MarketQuote, ...]:
    """Every market of a message's `markets`, parsed afresh."""
    if value is None:
        return ()
    if type(value) is not list:
        raise MalformedRecord("markets is not a list")
    out = []
    for market in value:
        name, entries, updated = _checked(market)
        out.append(
            MarketQuote(name, _updated_at(updated), tuple([fast_line(e, name) for e in entries]))
        )
    return tuple(out)
