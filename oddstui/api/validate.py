"""Checks of request parameters against the interface's limits, before anything is sent.

Each returns the value as it goes on the wire, or raises `RequestRejected` naming the parameter
and the rule.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import UTC, datetime

from oddstui.api.errors import MalformedRecord, RequestRejected
from oddstui.api.models import parse_time

MAX_BOOKMAKERS = 30  # per odds request: /odds, /odds/multi, /historical/odds
MAX_EVENT_IDS = 10  # per /odds/multi
MIN_SEARCH = 3
TIME_WINDOWS = ("opening", "12h", "24h", "48h")


def text(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise RequestRejected(f"{what} must be a non-empty string")
    return value.strip()


def slug(value: object, what: str) -> str:
    result = text(value, what)
    if "," in result:
        raise RequestRejected(f"{what} must be a single slug")
    return result


def bookmaker(value: object) -> str:
    result = text(value, "bookmaker")
    if "," in result:
        raise RequestRejected("bookmaker must be one bookmaker name")
    return result


def _split(values: Iterable[object] | str, what: str) -> list[str]:
    if isinstance(values, str):
        items: list[object] = list(values.split(","))
    else:
        try:
            items = list(values)
        except TypeError:
            raise RequestRejected(f"{what} must be a list or a comma-separated string") from None
    result: list[str] = []
    for item in items:
        if not isinstance(item, str):
            raise RequestRejected(f"{what} must be names (strings)")
        name = item.strip()
        if not name:
            raise RequestRejected(f"{what} contains an empty name")
        if "," in name:
            raise RequestRejected(f"{what}: a name cannot contain a comma")
        if name not in result:
            result.append(name)
    if not result:
        raise RequestRejected(f"{what} needs at least one name")
    return result


def names(values: Iterable[str] | str, what: str) -> str:
    return ",".join(_split(values, what))


def bookmakers(values: Iterable[str] | str, limit: int | None = MAX_BOOKMAKERS) -> str:
    """Comma-separated bookmaker names (case-sensitive), at most `limit` of them."""
    result = _split(values, "bookmakers")
    if limit is not None and len(result) > limit:
        raise RequestRejected(f"bookmakers: at most {limit} allowed, got {len(result)}")
    return ",".join(result)


def event_id(value: object, what: str = "event id") -> int:
    if isinstance(value, str) and value.strip().isdigit() and value.strip().isascii():
        value = int(value.strip())
    if type(value) is not int or value < 1:
        raise RequestRejected(f"{what} must be a positive integer")
    return value


def event_ids(values: Iterable[int | str] | str) -> str:
    items: Iterable[object] = values.split(",") if isinstance(values, str) else values
    ids: list[int] = []
    for item in items:
        number = event_id(item)
        if number not in ids:
            ids.append(number)
    if not ids:
        raise RequestRejected("eventIds needs at least one id")
    if len(ids) > MAX_EVENT_IDS:
        raise RequestRejected(f"eventIds: at most {MAX_EVENT_IDS} allowed, got {len(ids)}")
    return ",".join(map(str, ids))


def bounded_int(value: object, what: str, low: int, high: int | None) -> int:
    if type(value) is not int or value < low or (high is not None and value > high):
        rule = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise RequestRejected(f"{what} must be an integer {rule}")
    return value


def search(query: object) -> str:
    if not isinstance(query, str) or len(query.strip()) < MIN_SEARCH:
        raise RequestRejected(f"query must be at least {MIN_SEARCH} characters")
    return query.strip()


def _moment(value: datetime | str, what: str) -> datetime:
    if isinstance(value, datetime):
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    try:
        return parse_time(value, what)
    except MalformedRecord:
        raise RequestRejected(f"{what} must be an RFC 3339 time") from None


def timestamp(value: datetime | str, what: str) -> str:
    """RFC 3339 in UTC with a `Z`."""
    moment = _moment(value, what)
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + (
        f".{moment.microsecond // 1000:03d}Z" if moment.microsecond else "Z"
    )


def span(start: datetime | str, end: datetime | str, days: int) -> None:
    first, last = _moment(start, "from"), _moment(end, "to")
    if last < first:
        raise RequestRejected("to must not be before from")
    if (last - first).total_seconds() > days * 86400:
        raise RequestRejected(f"from and to must be at most {days} days apart")


def unix_seconds(value: object) -> int:
    if isinstance(value, datetime):
        return int(_moment(value, "since").timestamp())
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise RequestRejected("since must be Unix seconds or a datetime")
    if value < 0:
        raise RequestRejected("since must not be negative")
    return int(value)


def league_needs_sport(league: str | None, sport: str | None) -> None:
    if league and not sport:
        raise RequestRejected("league requires sport")


def time_window(value: object) -> str:
    if value not in TIME_WINDOWS:
        raise RequestRejected("timeWindow must be one of " + ", ".join(TIME_WINDOWS))
    return str(value)


def min_drop(value: object) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or value < 0
    ):
        raise RequestRejected("minDrop must be a number of at least 0")
    return float(value)
