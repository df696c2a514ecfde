"""The hourly request budget (`x-ratelimit-*`), the 429 wait, and backoff helpers."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

from oddstui.api.models import UNKNOWN_BUDGET, Budget, parse_budget

#: The length of the service's rate-limit window unless it shows a shorter one.
HOUR = 3600.0


class BudgetTracker:
    """The latest budget the service reported; the UI reads `budget` or passes `on_change`."""

    __slots__ = ("_budget", "_on_change", "requests_sent", "hour")

    def __init__(self, on_change: Callable[[Budget], None] | None = None) -> None:
        self._budget = UNKNOWN_BUDGET
        self._on_change = on_change
        self.requests_sent = 0
        #: The service's window in seconds: an hour, unless an answer that opened a window (one
        #: request used) showed its reset sooner (a test's service with a short "hour").
        self.hour = HOUR

    @property
    def budget(self) -> Budget:
        return self._budget

    def observe(self, headers: Mapping[str, str]) -> None:
        reported = parse_budget(headers)
        if reported is None or reported == self._budget:
            return
        limit, remaining, reset = reported.limit, reported.remaining, reported.reset
        if limit and remaining == limit - 1 and reset is not None:
            opened = (reset - datetime.now(UTC)).total_seconds()
            self.hour = min(HOUR, max(1.0, opened))
        self._budget = reported
        if self._on_change is not None:
            self._on_change(reported)

    def exhausted(self) -> bool:
        """True when the service said no requests are left and the reset time has not passed."""
        budget = self._budget
        if budget.remaining is None or budget.remaining > 0:
            return False
        return budget.reset is None or budget.reset > datetime.now(UTC)


def retry_after_seconds(value: str | None, now: datetime | None = None) -> float | None:
    """`Retry-After` as seconds to wait: delta-seconds or an HTTP date; None if absent/bad."""
    if value is None:
        return None
    text = value.strip()
    try:
        seconds = float(text)
    except ValueError:
        try:
            moment = parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        seconds = (moment - (now or datetime.now(UTC))).total_seconds()
    if seconds != seconds or seconds == float("inf"):
        return None
    return max(0.0, seconds)


def full_jitter(
    attempt: int, base: float = 1.0, cap: float = 30.0, rng: random.Random | None = None
) -> float:
    """A wait in `[0, min(cap, base * 2**attempt)]` (AWS "full jitter")."""
    ceiling = min(cap, base * (2 ** min(attempt, 32)))
    return (rng or random).uniform(0.0, ceiling)


class TokenBucket:
    """`capacity` tokens refilled at `rate` per second; `take()` says whether one was available."""

    __slots__ = ("capacity", "rate", "_tokens", "_stamp", "_clock")

    def __init__(
        self, capacity: float, rate: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.capacity = capacity
        self.rate = rate
        self._tokens = capacity
        self._clock = clock
        self._stamp = clock()

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self.capacity, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now

    def take(self, tokens: float = 1.0) -> bool:
        self._refill()
        if self._tokens >= tokens:
            self._tokens -= tokens
            return True
        return False

    def wait_time(self, tokens: float = 1.0) -> float:
        """Seconds until `tokens` would be available."""
        self._refill()
        missing = tokens - self._tokens
        return 0.0 if missing <= 0 else missing / self.rate if self.rate > 0 else float("inf")
