"""The budget tracker, Retry-After, full jitter and the token bucket, as pure code."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from oddstui.api.budget import BudgetTracker, TokenBucket, full_jitter, retry_after_seconds

NOW = datetime(2026, 11, 21, 10, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    "header, seconds",
    [
        ("120", 120.0),
        (" 1.5 ", 1.5),
        ("-3", 0.0),
        ("Sat, 21 Nov 2026 10:00:30 GMT", 30.0),
        ("Sat, 21 Nov 2026 09:59:00 GMT", 0.0),
        ("soon", None),
        ("inf", None),
        ("nan", None),
        (None, None),
    ],
)
def test_retry_after(header, seconds):
    assert retry_after_seconds(header, now=NOW) == seconds


def test_tracker_reports_changes_once_and_knows_when_exhausted():
    seen = []
    tracker = BudgetTracker(seen.append)
    assert not tracker.exhausted()
    reset = (datetime.now(UTC) + timedelta(minutes=5)).isoformat()
    headers = {"x-ratelimit-limit": "5", "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset}
    tracker.observe(headers)
    tracker.observe(headers)
    tracker.observe({})  # a response without the headers leaves the budget alone
    assert len(seen) == 1 and tracker.budget.remaining == 0
    assert tracker.exhausted()
    past = (datetime.now(UTC) - timedelta(minutes=5)).isoformat()
    tracker.observe({**headers, "x-ratelimit-reset": past})
    assert not tracker.exhausted()


def test_full_jitter_stays_within_the_capped_ceiling():
    rng = random.Random(3)
    for attempt in range(40):
        wait = full_jitter(attempt, base=1.0, cap=30.0, rng=rng)
        assert 0.0 <= wait <= min(30.0, 2.0**attempt)
    assert max(full_jitter(10, rng=rng) for _ in range(200)) > 15.0


def test_token_bucket_refills_at_its_rate():
    now = [0.0]
    bucket = TokenBucket(capacity=2, rate=0.5, clock=lambda: now[0])
    assert bucket.take() and bucket.take() and not bucket.take()
    assert bucket.wait_time() == pytest.approx(2.0)
    now[0] = 1.0
    assert not bucket.take()
    now[0] = 2.0
    assert bucket.take()
    now[0] = 100.0
    assert bucket.take() and bucket.take() and not bucket.take()
