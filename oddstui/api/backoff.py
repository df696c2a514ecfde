"""Reconnect backoff for the feed: full jitter, reset only when the caller says a connection held.

The token bucket that rate-limits resyncs is `oddstui.api.budget.TokenBucket`.
"""

from __future__ import annotations

import random

from oddstui.api.budget import full_jitter


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

    def next_delay(self) -> float:
        """The delay before the next attempt; counts the attempt."""
        delay = full_jitter(self.attempts, self.base, self.cap, self._rng)
        self.attempts += 1
        return delay

    def reset(self) -> None:
        self.attempts = 0
