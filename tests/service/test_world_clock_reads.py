"""A clock read between two steps of the world is the clock as of the answer, not of the last
step: during the warm-up nothing steps the world, and a loaded loop steps late, while an answer
says nothing of when its clock was read (a desk anchors it at the answer)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from oddstui.book.match_clock import clock_stops
from oddstui.server.accounts import demo_accounts
from oddstui.server.ratelimit import RateLimiter
from oddstui.service.app import create_app
from oddstui.service.context import ServiceContext
from oddstui.service.world import World
from oddstui.service.world.model import LIVE

START = 1_800_000_000.0
BETWEEN = 3.0  # real seconds without a step (a warm-up, a starved loop)


class RealClock:
    now = 0.0


@pytest.fixture(scope="module")
def paused() -> tuple[World, RealClock]:
    real = RealClock()
    world = World(seed=5, start=START, real_clock=lambda: real.now)
    world.step()
    return world, real


async def _live_clocks(client: httpx.AsyncClient) -> dict[int, dict[str, Any]]:
    answer = await client.get("/v3/events/live", params={"apiKey": "demo"})
    answer.raise_for_status()
    return {e["id"]: e["clock"] for e in answer.json() if "clock" in e}


async def test_live_events_tell_the_clock_as_of_the_answer(
    paused: tuple[World, RealClock],
) -> None:
    world, real = paused
    svc = ServiceContext(world, demo_accounts(), RateLimiter(), indexes=None)
    transport = httpx.ASGITransport(app=create_app(svc))
    async with httpx.AsyncClient(transport=transport, base_url="http://world") as client:
        before = await _live_clocks(client)
        real.now += BETWEEN  # time passes, the world is not stepped
        answered = await _live_clocks(client)
    world.step()
    stepped = {
        e.id: e.clock.to_wire()
        for e in world.events.values()
        if e.status == LIVE and e.clock is not None
    }
    compared = ran = 0
    # non-empty: `compared` counts the clocks judged, and is required below
    for event_id, clock in answered.items():
        event = world.events[event_id]
        if not clock_stops(event.sport.slug) or event_id not in stepped:
            continue
        if stepped[event_id]["period"] != before[event_id]["period"]:
            continue  # a period turned: the next step plays into another phase
        assert clock == stepped[event_id], (event.sport.slug, before[event_id])
        compared += 1
        ran += clock["playedSeconds"] > before[event_id]["playedSeconds"]
    assert compared >= 5, compared
    assert ran >= 3, ran  # clocks that ran meanwhile: the answer did not tell the last step's
