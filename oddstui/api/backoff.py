"""Reconnect backoff (full jitter) and the token bucket that rate-limits resyncs.

Both take their clock and random source as arguments, so tests can drive them without sleeping.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable


class Backoff:
    """Full-jitter exponential backoff: wait a random time in `[0, min(cap, base * 2**n)]`.

    `n` counts the connections that failed since the last one that held up. The caller decides
    what "held up" means and calls `reset()`; a handshake alone is not enough (FEED-CLIENT rule 8).
    """

    def __init__(
        self, base: float = 1.0, cap: float = 45.0, rng: random.Random | None = None
    ) -> None:
        if base <= 0 or cap < base:
            raise ValueError("backoff needs 0 < base <= cap")
        self.base = base
        self.cap = cap
        self.attempts = 0
        self._rng = rng or random.Random()

    def ceiling(self) -> float:
        """The upper bound of the next delay."""
        # 2**attempts overflows a float past ~1000 attempts; the cap is reached long before.
        return min(self.cap, self.base * 2 ** min(self.attempts, 64))

    def next_delay(self) -> float:
        """The delay before the next attempt; counts the attempt."""
        delay = self._rng.uniform(0.0, self.ceiling())
        self.attempts += 1
        return delay

    def reset(self) -> None:
        self.attempts = 0


class TokenBucket:
    """At most `capacity` takes at once, refilled at `per_hour` tokens an hour."""

    def __init__(
        self,
        capacity: float,
        per_hour: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if capacity < 1 or per_hour <= 0:
            raise ValueError("token bucket needs capacity >= 1 and a positive rate")
        self.capacity = float(capacity)
        self.rate = per_hour / 3600.0
        self._clock = clock
        self._tokens = float(capacity)
        self._stamp = clock()

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self.capacity, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now

    @property
    def tokens(self) -> float:
        self._refill()
        return self._tokens

    def try_take(self, amount: float = 1.0) -> bool:
        """Take `amount` tokens if they are there; never blocks."""
        self._refill()
        if self._tokens >= amount:
            self._tokens -= amount
            return True
        return False

    def seconds_until(self, amount: float = 1.0) -> float:
        """How long until `amount` tokens are available (0 when they are now)."""
        self._refill()
        missing = amount - self._tokens
        return 0.0 if missing <= 0 else missing / self.rate
