"""The service's clock as seen from here, learnt from the timestamps its feed messages carry.

A price's age is "service now - the bookmaker's `updatedAt`". The service's clock need not be
ours: it may be skewed, and the built-in service's runs `--speed` times faster than the wall. So
the clock is fitted, offset and rate, to (service time, local monotonic time) pairs: a straight
line through the last few seconds of samples, by least squares (the service stamps a whole tick's
messages alike, so single samples jitter by a tick).
"""

from __future__ import annotations

from collections import deque

#: Samples are taken at most this often (seconds, local): the feed brings thousands a second.
SAMPLE_EVERY = 0.05
#: The fit uses the samples of this many local seconds.
WINDOW = 10.0
#: A sample this far (service seconds) off the fitted line means the clock jumped (a restarted
#: service): start again from it.
JUMP = 30.0


class ServiceClock:
    """`now(local)` is the service's time (epoch seconds) at local monotonic time `local`."""

    __slots__ = ("_samples", "_fit", "_next")

    def __init__(self) -> None:
        self._samples: deque[tuple[float, float]] = deque()
        self._fit: tuple[float, float, float] | None = None  # local0, service0, rate
        self._next = float("-inf")

    def due(self, local: float) -> bool:
        """True when a sample taken at `local` would be kept (callers skip the conversion)."""
        return local >= self._next

    def observe(self, service: float, local: float) -> None:
        """The service's clock read `service` when the message arrived at `local`."""
        if local < self._next:
            return
        self._next = local + SAMPLE_EVERY
        fit = self._fit
        if fit is not None and abs(self._at(fit, local) - service) > JUMP * max(fit[2], 1.0):
            self._samples.clear()
        samples = self._samples
        samples.append((local, service))
        while samples[-1][0] - samples[0][0] > WINDOW:
            samples.popleft()
        self._fit = _fitted(samples)

    @property
    def known(self) -> bool:
        return self._fit is not None

    @property
    def rate(self) -> float:
        """Service seconds per local second (1.0 for a real-time service)."""
        return 1.0 if self._fit is None else self._fit[2]

    def now(self, local: float) -> float | None:
        """The service's time at `local`, or None before the first sample."""
        return None if self._fit is None else self._at(self._fit, local)

    def sent_at(self, service: float, received: float) -> float:
        """When a message stamped `service` and received at local `received` was sent, on the
        local clock: `received`, less how much later than the least delayed messages it came
        (a reader behind on the feed takes a message up late; what it carries is as of its
        stamp). `received` itself before the first sample."""
        fit = self._fit
        if fit is None:
            return received
        late = (self._at(fit, received) - service) / max(fit[2], 1e-9)
        return received - max(late, 0.0)

    @staticmethod
    def _at(fit: tuple[float, float, float], local: float) -> float:
        local0, service0, rate = fit
        return service0 + (local - local0) * rate


def _fitted(samples: deque[tuple[float, float]]) -> tuple[float, float, float]:
    """(mean local, mean service, slope); the slope is 1 until the samples span a second."""
    n = len(samples)
    mean_local = sum(local for local, _ in samples) / n
    mean_service = sum(service for _, service in samples) / n
    if samples[-1][0] - samples[0][0] < 1.0:
        # Too short to tell a rate: the newest sample, at real time.
        local, service = samples[-1]
        return (local, service, 1.0)
    spread = sum((local - mean_local) ** 2 for local, _ in samples)
    slope = sum((local - mean_local) * (service - mean_service) for local, service in samples)
    rate = max(slope / spread if spread > 0 else 1.0, 0.0)
    # Every message arrives late by its own delay, never early: the line through the least
    # delayed samples (the upper envelope) is the service's clock; the mean would lag by the
    # mean delay, which a fast service multiplies (30 ms late at --speed 60 is 1.8 s).
    local0 = samples[-1][0]
    service0 = max(service + (local0 - local) * rate for local, service in samples)
    return (local0, service0, rate)
