"""A free plan in the real service: no feed whatever the file says, 100 requests an hour by
default, and an "hour" a test can shorten (`hour_seconds`) to see the reset in seconds."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime

import httpx

from tests.service.conftest import Service
from tests.service.test_feed_support import denied

FREE_WITH_FEED = "k-free-with-feed-1"
SHORT_HOUR = "k-short-hour-2"
ACCOUNTS = f"""
[[account]]
key = "{FREE_WITH_FEED}"
plan = "free"
feed = true

[[account]]
key = "{SHORT_HOUR}"
plan = "free"
requests_per_hour = 3
hour_seconds = 4
"""


def get(service: Service, key: str) -> httpx.Response:
    return httpx.get(service.url("/bookmakers/selected"), params={"apiKey": key}, timeout=10)


async def test_a_free_plan_has_no_feed_and_100_requests_an_hour(
    service_factory: Callable[..., Service],
) -> None:
    service = service_factory(accounts=ACCOUNTS)
    status, body = await denied(service, FREE_WITH_FEED, markets="ML")
    assert status == 403
    assert body == {"error": "The WebSocket feed is not in the free plan; use the REST endpoints"}
    answer = get(service, FREE_WITH_FEED)
    assert answer.status_code == 200
    assert answer.headers["x-ratelimit-limit"] == "100"
    assert answer.headers["x-ratelimit-remaining"] == "99"


def test_a_short_hour_resets_when_its_headers_say(
    service_factory: Callable[..., Service],
) -> None:
    service = service_factory(accounts=ACCOUNTS)
    answers = [get(service, SHORT_HOUR) for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    reset = datetime.strptime(answers[0].headers["x-ratelimit-reset"], "%Y-%m-%dT%H:%M:%SZ")
    reset = reset.replace(tzinfo=UTC)
    assert 0 < (reset - datetime.now(UTC)).total_seconds() <= 5  # the short hour, whole seconds up
    # Wait for the reset the headers gave (a condition on the clock, bounded by the short hour).
    deadline = time.monotonic() + 10
    while datetime.now(UTC) <= reset and time.monotonic() < deadline:
        time.sleep(0.1)
    again = get(service, SHORT_HOUR)
    assert again.status_code == 200
    assert again.headers["x-ratelimit-remaining"] == "2"
