"""The hourly request budget that response headers report (`x-ratelimit-*`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from oddstui.api.errors import MalformedRecord
from oddstui.api.models.fields import parse_time


@dataclass(frozen=True, slots=True)
class Budget:
    """The hourly request budget as the service last reported it (`x-ratelimit-*`)."""

    limit: int | None
    remaining: int | None
    reset: datetime | None


UNKNOWN_BUDGET = Budget(None, None, None)


def parse_budget(headers: Mapping[str, str]) -> Budget | None:
    """The budget from response headers (case-insensitive mapping); None when none are sent."""
    limit = headers.get("x-ratelimit-limit")
    remaining = headers.get("x-ratelimit-remaining")
    reset = headers.get("x-ratelimit-reset")
    if limit is None and remaining is None and reset is None:
        return None

    def number(text: str | None) -> int | None:
        try:
            return None if text is None else int(float(text))
        except (ValueError, OverflowError):
            return None

    moment: datetime | None = None
    if reset is not None:
        try:
            moment = parse_time(reset.strip())
        except MalformedRecord:
            seconds = number(reset)
            # Some services send epoch seconds instead of ISO-8601; accept them too.
            if seconds is not None and seconds > 1_000_000_000:
                try:
                    moment = datetime.fromtimestamp(seconds, UTC)
                except (ValueError, OverflowError, OSError):
                    moment = None
    return Budget(number(limit), number(remaining), moment)
