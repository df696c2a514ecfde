"""Live listings the desk takes up late (a busy terminal, a loaded machine) still show each
clock where the service's is: the clocks are anchored at when the request was sent, not at when
the desk got round to the answer (seconds later on a busy desk)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from oddstui.book.match_clock import clock_stops
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, start_service, wait_for

LATE = 2.5  # seconds the desk stands still each time an answer arrives


@pytest.fixture(scope="module")
def real_time_service() -> Iterator[Service]:
    service = start_service("--seed", "5", "--updates-per-second", "50")
    yield service
    service.stop()


async def test_listings_taken_up_late_keep_their_clocks_on_time(
    real_time_service: Service,
) -> None:
    # No feed: the listings (every 3 s while clocks are estimated) are the clocks' only source.
    app = build_app(real_time_service.base_url, DEMO_KEY, start_mode="live", with_feed=False)
    async with app.run_test(size=(120, 40)) as pilot:
        hub = app.hub
        await wait_for(lambda: hub.live_loaded, pilot, timeout=60)

        async def busy(response: httpx.Response) -> None:
            if response.request.url.path.endswith("/events/live"):
                time.sleep(LATE)  # the whole desk stands still: the answer waits for it

        hooks = hub.api._http.event_hooks["response"]
        hooks.append(busy)
        try:
            late_from = time.time() + LATE
            await wait_for(lambda: (hub.rest_at or 0) >= late_from, pilot, timeout=60)
            # A second late one: the first one's clocks held what the one before showed.
            first_late = hub.rest_at or 0
            await wait_for(lambda: (hub.rest_at or 0) > first_late, pilot, timeout=60)
            async with httpx.AsyncClient() as client:
                asked = time.time()
                answer = await client.get(
                    real_time_service.base_url + "/events/live", params={"apiKey": DEMO_KEY}
                )
                answered = time.time()
        finally:
            hooks.remove(busy)
        answer.raise_for_status()
        behind = []
        # non-empty: `behind` holds the clocks judged, at least three required below
        for raw in answer.json():
            clock, shown = raw.get("clock"), hub.board.events.get(raw["id"])
            if clock is None or shown is None or shown.clock is None:
                continue
            if not (clock["running"] and shown.clock.running and clock_stops(raw["sport"]["slug"])):
                continue
            if clock["period"] != shown.clock.period:
                continue
            # The service read its clock between asked and answered, and the desk's shows the
            # most at `answered`. Whole seconds on both sides: within 1 s when anchored on time
            # (it was 2 to 3 s behind when anchored at the answer's taking up).
            behind.append(clock["playedSeconds"] - shown.clock.played_at(answered))
            assert behind[-1] <= 1, (raw["sport"]["slug"], clock, shown.clock, asked)
        assert len(behind) >= 3, behind
