"""Two `oddstui serve` at one seed, started 90 seconds apart, live in one world: the wall clock's.

The world is a function of its seed and the time, so the later service lists the same fixture
under the same id and kick-off, and each live match is where its kick-off says it is. The gap
between the starts is the input of this test, so it is a real (condition-free) wait; the file
holds only this test, so that xdist runs it beside the others.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

import httpx
import pytest

from tests.service.conftest import Service
from tests.service.helpers import get, ok

GAP = 90.0  # seconds between the two starts (the issue asks for 90)
CLOCK_SLACK = 5  # seconds: the answers are a moment apart, the clock is whole seconds, and a
# service on a loaded machine steps its world a little late

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]


def kickoff(event: dict[str, Any]) -> float:
    return datetime.fromisoformat(event["date"].replace("Z", "+00:00")).timestamp()


def live(service: Service) -> tuple[dict[int, dict[str, Any]], float]:
    """The live events by id, and the wall-clock time they were asked at."""
    with httpx.Client(base_url=service.base_url, timeout=30) as http:
        asked = time.time()
        events = ok(get(http, service, "/events/live"))
    return {e["id"]: e for e in events}, asked


def football(service: Service) -> dict[int, dict[str, Any]]:
    """Football fixtures kicking off from 7 hours ago to 5 hours ahead (what a service lays out
    before its ready line; the rest of its days follow in the background)."""
    with httpx.Client(base_url=service.base_url, timeout=30) as http:
        events = ok(get(http, service, "/events", sport="football"))
    now = time.time()
    return {e["id"]: e for e in events if now - 7 * 3600 <= kickoff(e) <= now + 5 * 3600}


def test_services_started_apart_share_ids_kickoffs_and_clocks(
    service_factory: Callable[..., Service],
) -> None:
    first = service_factory(seed=5)
    early = football(first)
    assert early
    time.sleep(GAP)
    second = service_factory(seed=5)

    # The same fixtures under the same ids: the football fixtures the first service listed at
    # its start are listed by the second with the same teams and time.
    later = football(second)
    assert later
    shared = set(early) & set(later)
    assert len(shared) >= 0.9 * len(early), (len(shared), len(early))
    for event_id in shared:
        a, b = early[event_id], later[event_id]
        assert (a["home"], a["away"], a["date"]) == (b["home"], b["away"], b["date"]), event_id

    # Now both are asked at (nearly) the same moment: the same live matches, at the same point.
    one, asked_one = live(first)
    two, asked_two = live(second)
    assert one and two
    apart = asked_two - asked_one
    common = set(one) & set(two)
    assert len(common) >= 0.9 * max(len(one), len(two)), (len(common), len(one), len(two))
    for event_id in common:
        a, b = one[event_id], two[event_id]
        assert (a["home"], a["away"], a["date"]) == (b["home"], b["away"], b["date"])
        clock_a, clock_b = a.get("clock"), b.get("clock")
        assert clock_a is not None and clock_b is not None, event_id
        if clock_a["period"] == clock_b["period"]:
            gap = clock_b["playedSeconds"] - clock_a["playedSeconds"]
            assert -CLOCK_SLACK <= gap <= apart + CLOCK_SLACK, (a["sport"], clock_a, clock_b)

    # And each is where its kick-off says: a race (golf, cycling: its clock is the time since
    # the start) or a football first half before its added time has played exactly the time
    # since kick-off, in both services.
    checked = 0
    for events, asked in ((one, asked_one), (two, asked_two)):
        for event in events.values():
            clock = event["clock"]
            since = asked - kickoff(event)
            race = event["sport"]["slug"] in ("golf", "cycling", "athletics", "cross-country")
            first_half = event["sport"]["slug"] == "football" \
                and clock["statusDetail"] == "1st half" and clock["playedSeconds"] < 2700
            if race or first_half:
                assert abs(clock["playedSeconds"] - since) <= CLOCK_SLACK, (event, since)
                checked += 1
    assert checked >= 2, "no race or football first half live to check against the wall clock"
