"""Stop-clock matches against the real built-in service (real time): the service tells on the
feed when a clock stops and starts, and the desk's clocks follow it to within 2 s through the
stoppages, never stepping back within a period.

2 s: the wire's clock counts whole seconds (the service drops the fraction, the desk counts
whole seconds from its reading): 1 s; and where the desk anchors a reading, less than 1 s
(measured up to 0.58 s with a core busy: a REST answer is read as the service answers and
anchored at the request's send, a feed clock at the message's receive). The 3 s gap once seen
in CI came from clocks the service read at its last step (none during its warm-up) and the desk
anchored when it took the answer up: docs/clocks.md."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from oddstui.book.match_clock import clock_stops
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, start_service, wait_for

SAMPLES_FOR = 60.0  # seconds of samples
TOLERANCE = 2  # seconds between the desk's clock and the service's (see above)


@pytest.fixture(scope="module")
def real_time_service() -> Iterator[Service]:
    service = start_service("--seed", "5", "--updates-per-second", "200")
    yield service
    service.stop()


@pytest.mark.slow
async def test_stop_clocks_follow_the_service_through_stoppages(
    real_time_service: Service,
) -> None:
    app = build_app(real_time_service.base_url, DEMO_KEY, start_mode="live")
    async with app.run_test(size=(120, 40)) as pilot:
        hub, board = app.hub, app.hub.board
        await wait_for(lambda: hub.live_loaded and board.feed_clocks, pilot, timeout=60)
        assert not board.estimating_clocks()
        live_url = real_time_service.base_url + "/events/live"
        async with httpx.AsyncClient() as client:
            last: dict[tuple[int, int], int] = {}  # (event, period) -> desk's played seconds
            running_seen: dict[int, set[bool]] = {}
            compared = 0
            end = time.monotonic() + SAMPLES_FOR
            while time.monotonic() < end:
                asked = time.time()
                answer = await client.get(live_url, params={"apiKey": DEMO_KEY})
                answered = time.time()
                answer.raise_for_status()
                # non-empty: `compared` counts the samples judged, and is required below
                for raw in answer.json():
                    clock = raw.get("clock")
                    shown = board.events.get(raw["id"])
                    if clock is None or shown is None or shown.clock is None:
                        continue
                    if not clock_stops(raw["sport"]["slug"]):
                        continue
                    if shown.clock.period != clock["period"]:
                        continue  # the period turned within the sample
                    # The service read its clock between asked and answered, when the desk's
                    # showed between these two (it never steps back).
                    least, most = shown.clock.played_at(asked), shown.clock.played_at(answered)
                    played = most
                    gap = max(least - clock["playedSeconds"], clock["playedSeconds"] - most, 0)
                    assert gap <= TOLERANCE, (raw["id"], raw["sport"]["slug"], clock, shown.clock)
                    key = (raw["id"], clock["period"])
                    assert played >= last.get(key, 0), (key, played, last[key])
                    last[key] = played
                    running_seen.setdefault(raw["id"], set()).add(clock["running"])
                    compared += 1
                await pilot.pause(1.0)
        assert compared >= 60, compared
        # The samples held stoppages: some clock was seen both standing and running.
        turned = [event_id for event_id, seen in running_seen.items() if seen == {True, False}]
        assert turned, running_seen
