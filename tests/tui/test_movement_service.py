"""The odds movement chart against the real built-in service, and its pure figures."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from oddstui import config
from oddstui.api.models import Movements, Tick
from oddstui.tui.launch import build_app
from oddstui.tui.screens.event import EventScreen
from oddstui.tui.screens.movement import MovementModal
from oddstui.tui.widgets.movement_chart import (
    MovementChart,
    move_text,
    movement_cache,
    side_moves,
)
from oddstui.tui.widgets.price_grid import PriceGrid
from tests.tui.conftest import DEMO_KEY, Service, start_service, wait_for
from tests.tui.screen_text import screen_text


@pytest.fixture(scope="module")
def service() -> Iterator[Service]:
    service = start_service("--speed", "30", "--seed", "29", "--updates-per-second", "300")
    yield service
    service.stop()


def get(service: Service, path: str, **params: Any) -> Any:
    response = httpx.get(service.base_url + path, params={**params, "apiKey": DEMO_KEY}, timeout=10)
    response.raise_for_status()
    return response.json()


def tick(ms: int, **prices: float) -> Tick:
    return Tick(timestamp_ms=ms, hdp=None, label=None, prices=prices)


def test_side_moves_run_from_opening_to_now() -> None:
    movements = Movements(
        event_id=1,
        bookmaker="B",
        opening=tick(0, home=2.0, away=1.9),
        ticks=(tick(20, home=2.2, away=1.7), tick(10, home=2.1, away=1.8)),
    )
    home, away = side_moves(movements, ["home", "away"])
    assert home.prices == (2.0, 2.1, 2.2) and (home.opening, home.current) == (2.0, 2.2)
    assert home.percent == pytest.approx(10.0)
    assert home.ticks == pytest.approx(10.0)  # 2.00 -> 2.20 is ten 0.02 ticks
    assert away.ticks == pytest.approx(-20.0)
    text = move_text(home).plain
    assert "open 2.00" in text and "now 2.20" in text and "▲+10.00%" in text
    assert "+10.0 ticks" in text
    assert "▼" in move_text(away, "fractional").plain


def test_no_history_gives_no_sides() -> None:
    assert side_moves(Movements(1, "B", None, ()), ["home"]) == []


async def test_chart_shows_opening_and_current_of_a_real_event(
    service: Service, home: Path
) -> None:
    # Before kick-off: every bookmaker in the grid quotes the event (in play only some do).
    pending = get(service, "/events", sport="football", status="pending", limit=100)
    event = max(pending, key=lambda e: e.get("bookmakerCount") or 0)
    app = build_app(service.base_url, DEMO_KEY, config.Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.2)
        app.open_event(event["id"])
        await wait_for(
            lambda: isinstance(app.screen, EventScreen) and bool(app.screen.query(PriceGrid)),
            pilot,
        )
        screen: EventScreen = app.screen  # type: ignore[assignment]
        grid = screen.query_one(PriceGrid)
        await wait_for(lambda: len(grid.row_keys) >= 2, pilot, timeout=15)
        await pilot.press("j")
        bookmaker = grid.highlighted_key()
        assert bookmaker is not None and screen.market == "ML"

        await pilot.press("g")
        await wait_for(lambda: isinstance(app.screen, MovementModal), pilot)
        modal: MovementModal = app.screen  # type: ignore[assignment]
        assert modal.bookmaker == bookmaker
        chart = modal.query_one(MovementChart)
        await wait_for(lambda: bool(chart.query(".side-row")), pilot)

        truth = get(
            service, "/odds/movements", eventId=event["id"], bookmaker=bookmaker, market="ML"
        )
        opening = truth["opening"]
        text = screen_text(app)
        assert bookmaker in text and "Odds movement" in text
        assert f"open {float(opening['home']):.2f}" in text
        assert "now " in text and "ticks" in text

        # Shown again from the cache: no second request.
        cache = movement_cache(app.hub.api)
        fetched = cache.fetches
        await pilot.press("escape")
        await wait_for(lambda: isinstance(app.screen, EventScreen), pilot)
        await pilot.press("g")
        await wait_for(lambda: isinstance(app.screen, MovementModal), pilot)
        await wait_for(lambda: bool(app.screen.query(".side-row")), pilot)
        assert cache.fetches == fetched == 1


def test_totals_ticks_sent_as_home_and_away_are_over_and_under() -> None:
    # The public service's Totals ticks may carry home/away; the chart names the market's sides.
    movements = Movements(
        event_id=1,
        bookmaker="B",
        opening=tick(0, home=1.8, away=2.0),
        ticks=(tick(10, home=1.9, away=1.9),),
    )
    over, under = side_moves(movements, ["over", "under"])
    assert (over.side, over.prices) == ("over", (1.8, 1.9))
    assert (under.side, under.prices) == ("under", (2.0, 1.9))
    home, away = side_moves(movements, ["home", "away"])  # a two-way ML keeps its names
    assert (home.side, away.side) == ("home", "away")


async def test_a_totals_chart_names_over_and_under(service: Service, home: Path) -> None:
    pending = get(service, "/events", sport="football", status="pending", limit=100)
    event = max(pending, key=lambda e: e.get("bookmakerCount") or 0)
    app = build_app(service.base_url, DEMO_KEY, config.Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.2)
        app.open_event(event["id"])
        await wait_for(
            lambda: isinstance(app.screen, EventScreen) and bool(app.screen.query(PriceGrid)),
            pilot,
        )
        screen: EventScreen = app.screen  # type: ignore[assignment]
        await wait_for(lambda: len(screen.query_one(PriceGrid).row_keys) >= 2, pilot, timeout=15)
        for _ in range(10):
            if screen.market == "Totals":
                break
            await pilot.press("m")
        assert screen.market == "Totals"
        await pilot.press("j", "g")
        await wait_for(lambda: isinstance(app.screen, MovementModal), pilot)
        await wait_for(lambda: bool(app.screen.query(".side-row")), pilot)
        labels = [str(label.render()) for label in app.screen.query(".side-label")]
        assert [label.split()[0] for label in labels] == ["Over", "Under"]
