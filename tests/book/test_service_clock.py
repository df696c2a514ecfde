"""The service's clock, fitted from message timestamps: skewed, fast, jittery, restarted."""

from __future__ import annotations

import random

import pytest

from oddstui.book.service_clock import ServiceClock


def feed(clock: ServiceClock, start: float, seconds: float, rate: float, offset: float) -> float:
    """Messages every 10 ms for `seconds`, stamped per 100 ms tick (as the service batches)."""
    local = start
    while local < start + seconds:
        tick = local - (local % 0.1)
        clock.observe(offset + tick * rate, local + random.uniform(0.0, 0.004))
        local += 0.01
    return local


@pytest.mark.parametrize("rate", [1.0, 60.0])
def test_the_fit_follows_a_skewed_clock_at_any_speed(rate: float) -> None:
    random.seed(4)
    clock = ServiceClock()
    assert clock.now(0.0) is None and not clock.known
    local = feed(clock, 100.0, 5.0, rate, offset=1_700_000_000.0)
    assert clock.rate == pytest.approx(rate, rel=0.02)
    truth = 1_700_000_000.0 + local * rate
    now = clock.now(local)
    assert now is not None and abs(now - truth) < max(0.1 * rate, 0.2)


def test_a_restarted_service_starts_the_fit_again() -> None:
    random.seed(5)
    clock = ServiceClock()
    feed(clock, 0.0, 3.0, 1.0, offset=1_000.0)
    local = feed(clock, 3.0, 3.0, 1.0, offset=5_000.0)  # the clock jumped an hour
    now = clock.now(local)
    assert now is not None and abs(now - (5_000.0 + local)) < 0.2
