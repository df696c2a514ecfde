"""Query parameters: one declaration per parameter, used both to validate and to document.

A route lists its `Param`s; `parse_query` turns the raw query string into typed values or
raises `BadRequest` with a message that names the parameter and the rule it broke.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from oddstui.server.errors import BadRequest

STRING, INTEGER, NUMBER, BOOLEAN, ENUM, LIST, DATETIME = (
    "string",
    "integer",
    "number",
    "boolean",
    "enum",
    "list",
    "datetime",
)

_INTEGER = re.compile(r"[+-]?\d{1,18}")
_NUMBER = re.compile(r"[+-]?(\d{1,18}(\.\d{0,18})?|\.\d{1,18})([eE][+-]?\d{1,3})?")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_TRUE, _FALSE = ("true", "1", "yes"), ("false", "0", "no")
MAX_TEXT = 200  # longest accepted string value; bounds the work a hostile query can cause


@dataclass(frozen=True, slots=True)
class Param:
    """One query parameter: its type, rules and documentation."""

    name: str
    kind: str
    description: str
    required: bool = False
    default: Any = None
    minimum: float | None = None
    maximum: float | None = None
    max_items: int | None = None
    min_length: int | None = None
    max_length: int = MAX_TEXT
    choices: tuple[str, ...] = ()
    items: str = STRING  # kind of each item of a LIST: STRING or INTEGER

    def schema(self) -> dict[str, Any]:
        """The parameter's JSON schema, for the OpenAPI document."""
        if self.kind == INTEGER:
            schema: dict[str, Any] = {"type": "integer"}
        elif self.kind == NUMBER:
            schema = {"type": "number"}
        elif self.kind == BOOLEAN:
            schema = {"type": "boolean"}
        elif self.kind == ENUM:
            schema = {"type": "string", "enum": list(self.choices)}
        elif self.kind == DATETIME:
            schema = {"type": "string", "format": "date-time"}
        elif self.kind == LIST:
            schema = {"type": "string", "description": "comma-separated"}
            if self.max_items is not None:
                schema["x-maxItems"] = self.max_items
        else:
            schema = {"type": "string", "maxLength": self.max_length}
            if self.min_length:
                schema["minLength"] = self.min_length
        if self.minimum is not None:
            schema["minimum"] = self.minimum
        if self.maximum is not None:
            schema["maximum"] = self.maximum
        if self.default is not None:
            schema["default"] = self.default
        return schema


def control_refusal(name: str, text: str) -> str | None:
    """The one rule for every text a client sends (a query parameter, a feed filter): no control
    characters, which would reach logs, the welcome's echo and terminals. The refusal names the
    parameter; None when the text is clean."""
    return f"{name}: must not contain control characters" if _CONTROL.search(text) else None


def shown(text: str) -> str:
    """A client's value quoted in an error message, cut short and made printable."""
    text = _CONTROL.sub("?", text)
    return repr(text if len(text) <= 40 else text[:40] + "…")


def parse_query(params: Sequence[Param], items: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """Validate the raw query pairs against `params`; unknown parameters are ignored."""
    wanted = {p.name: p for p in params}
    raw: dict[str, str] = {}
    for name, value in items:
        if name in wanted:
            if name in raw:
                raise BadRequest(f"{name}: must be given at most once")
            raw[name] = value
    values: dict[str, Any] = {}
    for param in params:
        text = raw.get(param.name, "")
        if text.strip() == "":
            if param.required:
                raise BadRequest(f"{param.name}: required")
            values[param.name] = param.default
            continue
        values[param.name] = _parse_one(param, text)
    return values


def _parse_one(param: Param, text: str) -> Any:
    name = param.name
    if param.kind != LIST and len(text) > param.max_length:
        raise BadRequest(f"{name}: must be at most {param.max_length} characters")
    if refusal := control_refusal(name, text):
        raise BadRequest(refusal)
    if param.kind == INTEGER:
        return _in_range(param, parse_integer(name, text))
    if param.kind == NUMBER:
        return _in_range(param, parse_number(name, text))
    if param.kind == BOOLEAN:
        return parse_boolean(name, text)
    if param.kind == ENUM:
        if text not in param.choices:
            raise BadRequest(
                f"{name}: must be one of {', '.join(param.choices)}; got {shown(text)}"
            )
        return text
    if param.kind == DATETIME:
        return parse_datetime(name, text)
    if param.kind == LIST:
        return _parse_list(param, text)
    text = text.strip()
    if len(text) > param.max_length:
        raise BadRequest(f"{name}: must be at most {param.max_length} characters")
    if param.min_length and len(text) < param.min_length:
        raise BadRequest(f"{name}: must be at least {param.min_length} characters")
    return text


def parse_integer(name: str, text: str) -> int:
    text = text.strip()
    if not _INTEGER.fullmatch(text):
        raise BadRequest(f"{name}: must be an integer; got {shown(text)}")
    return int(text)


def parse_number(name: str, text: str) -> float:
    text = text.strip()
    if not _NUMBER.fullmatch(text):
        raise BadRequest(f"{name}: must be a number; got {shown(text)}")
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise BadRequest(f"{name}: must be a finite number; got {shown(text)}")
    return value


def parse_boolean(name: str, text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise BadRequest(f"{name}: must be true or false; got {shown(text)}")


def parse_datetime(name: str, text: str) -> float:
    """An RFC 3339 / ISO-8601 time (UTC when no offset is given) as Unix seconds."""
    cleaned = text.strip()
    if len(cleaned) > 40:
        raise BadRequest(f"{name}: must be an RFC 3339 date-time; got {shown(text)}")
    try:
        moment = datetime.fromisoformat(cleaned.replace("z", "Z"))
    except ValueError:
        raise BadRequest(
            f"{name}: must be an RFC 3339 date-time such as 2026-09-20T13:00:00Z; got {shown(text)}"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        return moment.timestamp()
    except (OverflowError, OSError, ValueError):
        raise BadRequest(f"{name}: date-time out of range; got {shown(text)}") from None


def _in_range(param: Param, value: float) -> Any:
    low, high = param.minimum, param.maximum
    if (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            rule = f"must be from {_num(low)} to {_num(high)}"
        elif low is not None:
            rule = f"must be at least {_num(low)}"
        else:
            rule = f"must be at most {_num(high or 0)}"
        raise BadRequest(f"{param.name}: {rule}; got {_num(value)}")
    return value


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() and abs(value) < 1e18 else str(value)


def _parse_list(param: Param, text: str) -> list[Any]:
    limit = param.max_items
    if len(text) > MAX_TEXT * (limit or 50):
        raise BadRequest(f"{param.name}: too long")
    seen: dict[Any, None] = {}
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if len(part) > param.max_length:
            raise BadRequest(
                f"{param.name}: each item must be at most {param.max_length} characters"
            )
        item: Any = parse_integer(param.name, part) if param.items == INTEGER else part
        seen[item] = None
    items = list(seen)
    if not items and param.required:
        raise BadRequest(f"{param.name}: required")
    if limit is not None and len(items) > limit:
        raise BadRequest(f"{param.name}: at most {limit} allowed; got {len(items)}")
    return items
