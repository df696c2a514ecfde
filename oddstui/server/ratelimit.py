"""The hourly request limit per account, in real (wall-clock) time.

Each key gets a fixed one-hour window that opens at its first counted request. Real time, not
simulated time: an hour of quota is an hour of the caller's clock whatever `--speed` is. An
account may shorten its "hour" (`hour_seconds`) so that a test sees a reset in seconds.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

WINDOW = 3600.0


@dataclass(frozen=True, slots=True)
class Verdict:
    allowed: bool
    limit: int
    remaining: int
    reset_at: float  # Unix seconds
    retry_after: int  # whole seconds; 0 when allowed

    def headers(self) -> dict[str, str]:
        # Whole seconds, rounded up: a client that waits for the stated reset is not refused.
        reset_at = math.ceil(self.reset_at)
        reset = datetime.fromtimestamp(reset_at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        headers = {
            "x-ratelimit-limit": str(self.limit),
            "x-ratelimit-remaining": str(self.remaining),
            "x-ratelimit-reset": reset,
        }
        if not self.allowed:
            headers["Retry-After"] = str(self.retry_after)
        return headers


class RateLimiter:
    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._windows: dict[str, tuple[float, int]] = {}  # key -> (window start, count)

    def hit(self, key: str, limit: int, window: float = WINDOW) -> Verdict:
        """Count one request for `key` unless it is over `limit` in this `window` (seconds)."""
        now = self._clock()
        start, count = self._windows.get(key, (now, 0))
        if now >= start + window:
            start, count = now, 0
        reset_at = start + window
        if count >= limit:
            self._windows[key] = (start, count)
            return Verdict(False, limit, 0, reset_at, max(1, math.ceil(reset_at - now)))
        count += 1
        self._windows[key] = (start, count)
        return Verdict(True, limit, limit - count, reset_at, 0)
