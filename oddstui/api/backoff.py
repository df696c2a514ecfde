"""Reconnect backoff for the feed: full jitter, reset only when the caller says a connection held;
and, while a long wait runs after the service could not be reached, a cheap TCP probe that ends
the wait once it is back.

The token bucket that rate-limits resyncs is `oddstui.api.budget.TokenBucket`.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from urllib.parse import urlsplit

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


PROBE_EVERY = 1.0  # seconds between TCP probes while a long backoff runs
PROBE_JITTER = 1.0  # the most a desk waits after a probe succeeds, so desks do not stampede


def probe_address(base_url: str) -> tuple[str, int] | None:
    """The host and port a TCP probe of the service connects to."""
    parts = urlsplit(base_url)
    if not parts.hostname:
        return None
    default = 443 if parts.scheme in ("https", "wss") else 80
    try:
        return parts.hostname, parts.port or default
    except ValueError:  # a port out of range: the connection attempt says so
        return None


async def reachable(address: tuple[str, int], timeout: float = PROBE_EVERY) -> bool:
    """Whether the service accepts a TCP connection: a probe that costs no request."""
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(*address), timeout)
    except (OSError, TimeoutError):
        return False
    writer.close()
    with contextlib.suppress(Exception):
        await writer.wait_closed()
    return True


async def wait_or_probe(
    delay: float,
    wake: asyncio.Event,
    address: tuple[str, int] | None,
    rng: random.Random,
) -> None:
    """Wait `delay` seconds or until `wake` is set; with an `address`, also until a TCP probe
    (one a second) finds the service back, then a jittered moment more.

    A capped full-jitter backoff alone leaves a desk offline for up to the cap (45 s) after its
    service came back; the probe makes that about a second, whatever the outage's length, and
    costs nothing while the service is down.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + max(0.0, delay)
    while (remaining := deadline - loop.time()) > 0:
        step = remaining if address is None else min(PROBE_EVERY, remaining)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), step)
            return
        if address is not None and deadline - loop.time() > 0 and await reachable(address):
            await asyncio.sleep(min(rng.uniform(0.0, PROBE_JITTER), deadline - loop.time()))
            return
