"""True ages against the real built-in service at --speed 60: the Event grid's age of a price is
the service's now minus the bookmaker's `updatedAt`, within 2 s, though the service's clock runs
sixty times faster than the wall. The service's now is read by a second feed connection (another
key), from the timestamp of the message it just received."""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from oddstui import config
from oddstui.api.feed_url import FeedFilters, feed_url
from oddstui.api.models import parse_time
from oddstui.service.world.durations import MEAN_DURATIONS
from oddstui.tui.desk.state import LIVE
from oddstui.tui.event.event_screen import EventScreen
from oddstui.tui.kit.service_clock import hub_service_time
from oddstui.tui.launch import build_app
from tests.tui.conftest import Service, start_service, wait_for

pytestmark = pytest.mark.timeout(240)
DESK, PROBE = "k-desk-ages", "k-probe-ages"


@pytest.fixture(scope="module")
def fast(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    accounts = tmp_path_factory.mktemp("ages") / "accounts.toml"
    accounts.write_text(
        "".join(
            f'[[account]]\nkey = "{key}"\nplan = "paid"\nfeed = true\n' for key in (DESK, PROBE)
        )
    )
    service = start_service(
        "--speed",
        str(int(SPEED)),
        "--seed",
        "13",
        "--updates-per-second",
        "300",
        "--accounts",
        str(accounts),
    )
    yield service
    service.stop()


SPEED = 60.0  # the service's --speed


async def service_now(probe: object) -> tuple[float, float]:
    """The newest timestamp the probe's feed carries, read as soon as it arrives, and the
    monotonic time it arrived."""
    while True:
        text = await asyncio.wait_for(probe.recv(), timeout=10)  # type: ignore[attr-defined]
        try:  # take what is queued already: the newest frame is the one that tells the time
            while True:
                text = await asyncio.wait_for(probe.recv(), timeout=0.001)  # type: ignore[attr-defined]
        except TimeoutError:
            pass
        stamps = [json.loads(line).get("timestamp") for line in str(text).splitlines()]
        stamps = [stamp for stamp in stamps if stamp]
        if stamps:
            return max(parse_time(stamp).timestamp() for stamp in stamps), time.monotonic()


#: Service seconds a match opened for a test should have left: two real minutes at 60x.
LEFT_TO_PLAY = 120 * SPEED


async def open_busiest_live_event(app: Any, pilot: Any) -> tuple[Any, EventScreen]:
    """Open a live event that shows two bookmakers' prices, trying those most bookmakers quote
    among the matches with two real minutes left by their sport's mean length (at 60x a real
    minute is a service hour: the latest kick-off of a short sport, a 15-minute fight, ended
    under the test, and a settled match shows no price); a market can be suspended for a while,
    so the next is tried. Returns the event and its Event screen."""
    await wait_for(lambda: app.hub.board.live_ids, pilot, timeout=30)
    # Kick-offs are on the service's clock: read once the feed has put it (60x the wall's).
    def service_clock_fitted() -> bool:
        return bool(app.hub.read(lambda book: book.service_clock.now(0.0) is not None))

    await wait_for(service_clock_fitted, pilot, timeout=30)
    live = [app.hub.board.events[i] for i in app.hub.board.live_ids]
    now = hub_service_time(app.hub)

    def left(event: Any) -> float:
        played = now - event.start.timestamp() if event.start else 0.0
        return MEAN_DURATIONS.get(event.sport_slug, 0.0) - played

    lasting = [e for e in live if left(e) > LEFT_TO_PLAY] or sorted(live, key=left)[-6:]
    for event in sorted(lasting, key=lambda e: e.bookmaker_count or 0, reverse=True)[:3]:
        app.open_event(event.id)
        await wait_for(lambda: isinstance(app.screen, EventScreen), pilot, timeout=30)
        screen = app.screen

        def two_prices_shown(shown: EventScreen = screen) -> bool:
            return len(shown.rows) >= 2

        try:
            await wait_for(two_prices_shown, pilot, timeout=25)
        except AssertionError:
            app.pop_screen()
            await wait_for(lambda: not isinstance(app.screen, EventScreen), pilot)
            continue
        return event, screen
    raise AssertionError("none of the three latest live events most quoted shows two prices")


async def test_ages_count_from_the_bookmakers_updated_at_by_the_services_clock(
    fast: Service, home: Path
) -> None:
    app = build_app(fast.base_url, DESK, config.Settings(), watchlist_path=home / "w.toml")
    async with app.run_test(size=(120, 40)) as pilot:
        event, screen = await open_busiest_live_event(app, pilot)
        await pilot.pause(2.0)  # the desk's fit of the service's clock spans a second or more
        url = feed_url(fast.base_url, PROBE, FeedFilters(markets=("ML",)), None)
        # The reference clock: the probe's own samples of the service's time, taken on this
        # loop, where frames wait their turn; the least delayed of them (the upper envelope of
        # stamp - SPEED * receipt) puts the service's clock at any moment.
        offsets: list[float] = []
        readings: list[tuple[float, float, float]] = []  # (read at, age shown, updated at)
        # (book, updated at) -> (the probe's service time, age shown) at each reading
        unchanged: dict[tuple[str, float], list[tuple[float, float]]] = {}
        async with connect(url) as probe:
            for _ in range(12):
                stamp, received = await service_now(probe)
                offsets.append(stamp - SPEED * received)
                screen._show_prices()  # the grid as painted at this moment
                read_at = time.monotonic()
                with app.hub.reading() as book:
                    for row in screen.rows:
                        market = book.market(event.id, row.bookmaker, screen.market or "")
                        if row.age is None or market is None or market.updated_at is None:
                            continue
                        readings.append((read_at, row.age, market.updated_at.timestamp()))
                        unchanged.setdefault((row.bookmaker, readings[-1][2]), []).append(
                            (stamp, row.age)
                        )
                await pilot.pause(0.1)
        offset = max(offsets)
        errors = [age - (offset + SPEED * at - updated) for at, age, updated in readings]
        assert len(errors) >= 12
        # The probe's clock is the least delayed of its own samples, the desk's the least
        # delayed of all it has seen (a longer history), so the desk may only be ahead of it:
        # never behind by more than 2 service seconds (counting from when a frame arrived
        # would make ages younger) further than the two clocks' samples can disagree on a
        # loaded machine (half a real second, 30 service seconds), and ahead by less than a
        # real second's worth (60 service seconds). A wrong clock or unit is off by far more:
        # the local clock is behind the service's by 59 s for every real second it has run.
        median = statistics.median(errors)
        assert -SPEED * 0.5 < median < SPEED * 1.0, sorted(errors)
        # Ages are in service seconds: a price that did not move between two readings aged by
        # about the service time the probe saw pass between them (real seconds would be 60x
        # less). The pair furthest apart is compared.
        first, last = max(
            ((seen[0], seen[-1]) for seen in unchanged.values()),
            key=lambda pair: pair[1][0] - pair[0][0],
        )
        passed = last[0] - first[0]
        assert passed > 0, "no price stayed unchanged across two probe samples"
        assert last[1] - first[1] > passed / 2, (first, last)


async def test_the_age_a_price_is_stale_at_is_a_setting(fast: Service, home: Path) -> None:
    from textual.widgets import Input

    from oddstui.tui.settings.settings_screen import SettingsScreen

    app = build_app(fast.base_url, DESK, config.Settings(), watchlist_path=home / "w.toml")
    async with app.run_test(size=(120, 40)) as pilot:
        _, screen = await open_busiest_live_event(app, pilot)
        await wait_for(lambda: app.hub.status.trustworthy, pilot, 30)

        async def set_stale_live(text: str) -> None:
            await pilot.press("s")
            await wait_for(lambda: isinstance(app.screen, SettingsScreen), pilot)
            app.screen.query_one("#stale-live", Input).value = text
            await wait_for(lambda: app.settings.stale_live == float(text), pilot)
            await pilot.press("escape")
            await wait_for(lambda: app.screen is screen, pilot)

        def dimmed_by(limit: float) -> bool:
            # While the feed is not trusted (a loaded machine can put it behind), every price is
            # dimmed whatever its age: the limit is judged on a trusted feed.
            trusted = app.hub.status.trustworthy
            screen._show_prices()
            aged = [row for row in screen.rows if row.age is not None]
            return (
                trusted
                and bool(aged)
                and all(row.stale == (row.age > limit) for row in aged)  # type: ignore[operator]
            )

        # At 60x a few real seconds are minutes of service time: a 1 s limit dims prices that
        # the default 90 s does not.
        await set_stale_live("1")

        def a_price_dimmed_younger_than_the_default() -> bool:
            assert screen.event is not None and screen.event.status == LIVE, "the match ended"
            default = config.Settings().stale_live
            return dimmed_by(1.0) and any(
                row.stale and (row.age or 0) < default for row in screen.rows
            )

        await wait_for(a_price_dimmed_younger_than_the_default, pilot, timeout=60)
        await set_stale_live("1000000")
        await wait_for(lambda: dimmed_by(1e6), pilot, timeout=60)
        assert not any(row.stale for row in screen.rows if row.age is not None)
    assert config.load_settings().stale_live == 1e6
