"""Readers of wire fields: what the public service really sends (ids as strings or numbers,
prices as strings, `"N/A"` urls, timestamps with any number of fraction digits) into Python
values, or `MalformedRecord` with a short reason."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any, TypeVar

from oddstui.api.errors import MalformedRecord

MISSING_PRICES = frozenset({"", "N/A", "n/a", "-"})
_NO_URL = frozenset({"", "N/A", "n/a", "-"})
# Keys of a market entry that are not sides; anything else holding a number is a price.
ENTRY_META = frozenset({"hdp", "label", "max", "id", "updatedAt", "timestamp", "limit"})
T = TypeVar("T")
TIME_CACHE: dict[str, datetime] = {}
_TIME_CACHE_MAX = 4096


def malformed(reason: str) -> MalformedRecord:
    return MalformedRecord(reason)


def as_mapping(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise malformed(f"{what} is not an object")
    return value


def as_int(value: Any, what: str) -> int:
    """An integer from an int, an integral float or a decimal string; bools are refused."""
    if type(value) is int:
        return value
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            raise malformed(f"{what} is not an integer") from None
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise malformed(f"{what} is not an integer")


def as_opt_int(value: Any, what: str) -> int | None:
    return None if value is None else as_int(value, what)


def as_float(value: Any, what: str) -> float:
    if isinstance(value, bool):
        raise malformed(f"{what} is not a number")
    if not isinstance(value, int | float | str):
        raise malformed(f"{what} is not a number")
    try:
        number = float(value)
    except (ValueError, OverflowError):
        raise malformed(f"{what} is not a number") from None
    if not math.isfinite(number):
        raise malformed(f"{what} is not finite")
    return number


def as_opt_float(value: Any, what: str) -> float | None:
    return None if value is None else as_float(value, what)


def as_str(value: Any, what: str) -> str:
    if isinstance(value, str):
        return value
    raise malformed(f"{what} is not a string")


def as_opt_str(value: Any, what: str) -> str | None:
    return None if value is None else as_str(value, what)


def as_id_text(value: Any, what: str) -> str:
    """An identifier kept as text (arbitrage ids, bookmaker fixture ids): a string or number."""
    if isinstance(value, str):
        return value
    if type(value) is int:
        return str(value)
    raise malformed(f"{what} is not an id")


def parse_time(value: Any, what: str = "timestamp") -> datetime:
    """An aware UTC datetime from ISO-8601 text (any fraction digits, `Z` or an offset)."""
    if not isinstance(value, str):
        raise malformed(f"{what} is not a time string")
    cached = TIME_CACHE.get(value)
    if cached is not None:
        return cached
    try:
        moment = datetime.fromisoformat(value)
        moment = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    except (ValueError, OverflowError):
        raise malformed(f"{what} is not an ISO-8601 time") from None
    if len(TIME_CACHE) >= _TIME_CACHE_MAX:
        TIME_CACHE.clear()
    TIME_CACHE[value] = moment
    return moment


def as_opt_time(value: Any, what: str) -> datetime | None:
    return None if value is None or value == "" else parse_time(value, what)


def as_price(value: Any, what: str) -> float | None:
    """A decimal price from a string or number; None when the side is not quoted."""
    if value is None or (isinstance(value, str) and value.strip() in MISSING_PRICES):
        return None
    number = as_float(value, what)
    # Books show 1.00 (or 0) for a suspended side; it is not a price anyone can take.
    return number if number > 1.0 else None


def as_url(value: Any) -> str | None:
    if isinstance(value, str) and value.strip() not in _NO_URL:
        return value
    return None


def as_list(value: Any, what: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise malformed(f"{what} is not a list")
    return value


def parse_list(value: Any, parse: Callable[[Any], T], what: str) -> list[T]:
    """Parse a bare JSON array with `parse` per item; a non-list is malformed."""
    if not isinstance(value, list):
        raise malformed(f"{what} is not a list")
    return [parse(item) for item in value]
