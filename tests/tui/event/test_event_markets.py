"""Every market on the Event screen, against the real built-in service: a football match cycles
all the markets the book holds (at least 12), main markets first, and player props show the
player's name on their line."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from oddstui import config
from oddstui.tui.event.event_screen import EventScreen
from oddstui.tui.event.market_order import market_order
from oddstui.tui.event.scoreboard import Scoreboard
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, start_service, wait_for

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def service() -> Iterator[Service]:
    running = start_service("--seed", "21", "--speed", "5", "--updates-per-second", "300")
    yield running
    running.stop()


def richest_football(service: Service) -> dict[str, Any]:
    """The live (or else next) football event whose bookmakers quote the most market names."""

    def get(path: str, **params: Any) -> Any:
        response = httpx.get(
            service.base_url + path, params={**params, "apiKey": DEMO_KEY}, timeout=10
        )
        response.raise_for_status()
        return response.json()

    events = [e for e in get("/events/live") if e["sport"]["slug"] == "football"]
    events += get("/events", sport="football", status="pending", limit=20)
    books = ",".join(get("/bookmakers/selected")["bookmakers"])
    best: tuple[int, dict[str, Any]] | None = None
    for event in events[:15]:
        record = get("/odds", eventId=event["id"], bookmakers=books)
        names = {m["name"] for markets in record["bookmakers"].values() for m in markets}
        if best is None or len(names) > best[0]:
            best = (len(names), event)
    assert best is not None
    return best[1]


async def test_a_football_event_cycles_every_market_the_book_holds(
    service: Service, home: Path
) -> None:
    event = richest_football(service)
    app = build_app(
        service.base_url, DEMO_KEY, config.Settings(), watchlist_path=home / "watchlist.toml"
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.2)
        app.open_event(event["id"])
        await wait_for(
            lambda: isinstance(app.screen, EventScreen) and bool(app.screen.query(Scoreboard)),
            pilot,
            timeout=30,
        )
        screen: EventScreen = app.screen
        await wait_for(lambda: len(screen._markets) >= 12, pilot, timeout=30)
        held = app.hub.read(lambda book: book.market_names(event["id"]))
        assert screen.market == "ML"
        seen = [screen.market]
        for _ in range(len(held) - 1):
            await pilot.press("m")
            await pilot.pause(0.05)
            seen.append(screen.market)
        assert len(set(seen)) >= 12
        assert seen[:3] == ["ML", "Spread", "Totals"]
        assert seen == market_order(seen, "football")  # in reading order, each once
        await pilot.press("m")
        await pilot.pause(0.05)
        assert screen.market == "ML"  # round again

        assert "Player Props" in screen._markets
        while screen.market != "Player Props":
            await pilot.press("m")
            await pilot.pause(0.05)
        line = screen.line
        assert line is not None and line[1], "a player prop's line carries its label"
        assert line[1] in str(screen.query_one("#market-bar").render())


async def test_the_feed_markets_setting_chooses_what_the_desk_subscribes_to(
    service: Service, home: Path
) -> None:
    """`Bookings Spread` is not among the desk's own 20; a trader who names it gets it, and
    only what they named."""
    event = richest_football(service)
    chosen = {"ML", "Bookings Spread"}
    settings = config.Settings(feed_markets=sorted(chosen))
    app = build_app(service.base_url, DEMO_KEY, settings, watchlist_path=home / "watchlist.toml")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.2)
        app.open_event(event["id"])
        await wait_for(lambda: isinstance(app.screen, EventScreen), pilot, timeout=30)
        screen: EventScreen = app.screen

        def held() -> set[str]:
            return set(app.hub.read(lambda book: book.market_names(event["id"])))

        # ML may be withdrawn for a while in play (a one-sided score): judge Bookings Spread.
        await wait_for(lambda: "Bookings Spread" in held(), pilot, timeout=30)
        assert held() <= chosen
        await wait_for(lambda: "Bookings Spread" in screen._markets, pilot, timeout=30)
        assert set(screen._markets) <= chosen
