"""The odds movement chart against the real built-in service, and its pure figures."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from oddstui import config
from oddstui.api.models import Movements, Tick
from oddstui.book.exchange import is_lay
from oddstui.tui.event.event_screen import EventScreen
from oddstui.tui.event.movement_chart import (
    move_text,
    movement_cache,
    side_moves,
    time_ticks,
)
from oddstui.tui.event.movement_modal import MovementModal
from oddstui.tui.event.price_grid import PriceGrid
from oddstui.tui.event.price_history import PriceHistory, steps
from oddstui.tui.launch import build_app
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
    assert home.times == (0.0, 0.01, 0.02)  # seconds, oldest first
    assert home.percent == pytest.approx(10.0)
    assert home.ticks == pytest.approx(10.0)  # 2.00 -> 2.20 is ten 0.02 ticks
    assert away.ticks == pytest.approx(-20.0)
    text = move_text(home).plain
    assert "open 2.00" in text and "now 2.20" in text and "▲+10.00%" in text
    assert "+10.0 ticks" in text
    assert "▼" in move_text(away, "fractional").plain


def test_no_history_gives_no_sides() -> None:
    assert side_moves(Movements(1, "B", None, ()), ["home"]) == []


def test_a_price_holds_until_the_next_one() -> None:
    xs, ys = steps([0.0, 10.0, 30.0], [2.0, 2.2, 2.1], until=50.0)
    assert list(zip(xs, ys, strict=True)) == [
        (0.0, 2.0), (10.0, 2.0), (10.0, 2.2), (30.0, 2.2), (30.0, 2.1), (50.0, 2.1)
    ]  # fmt: skip


def test_time_labels_span_the_history(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    positions, labels = time_ticks(0.0, 3600.0, 3)
    assert positions == [0.0, 1800.0, 3600.0] and labels == ["00:00", "00:30", "01:00"]
    assert time_ticks(0.0, 3 * 86_400.0, 2)[1] == ["Thu 00:00", "Sun 00:00"]


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
        await wait_for(lambda: len(grid.row_keys) >= 2, pilot, timeout=30)
        await pilot.press("j")
        bookmaker = grid.highlighted_key()
        assert bookmaker is not None and screen.market == "ML"

        await pilot.press("g")
        await wait_for(lambda: isinstance(app.screen, MovementModal), pilot)
        modal: MovementModal = app.screen  # type: ignore[assignment]
        assert modal.bookmaker == bookmaker
        chart = modal.query_one(PriceHistory)
        await wait_for(lambda: bool(chart.books), pilot)
        await pilot.pause(0.2)

        assert len(chart.books) >= 2 and next(iter(chart.books)) == bookmaker  # overlaid
        truth = get(
            service, "/odds/movements", eventId=event["id"], bookmaker=bookmaker, market="ML"
        )
        opening = truth["opening"]
        text = screen_text(app)
        assert "Odds movement" in text and all(book in text for book in chart.books)
        assert f"open {opening['home']}" in text  # as the book quotes it
        assert "now " in text and "ticks" in text and "◆ opening" in text
        assert text.count("┤") >= 2 and text.count("┬") >= 2  # price and time axes
        assert chart.side == "home"
        await pilot.press("right")
        assert chart.side == "draw" and "Draw" in screen_text(app)

        # Shown again from the cache: no second request.
        cache = movement_cache(app.hub.api)
        fetched = cache.fetches
        await pilot.press("escape")
        await wait_for(lambda: isinstance(app.screen, EventScreen), pilot)
        await pilot.press("g")
        await wait_for(lambda: isinstance(app.screen, MovementModal), pilot)
        await wait_for(lambda: bool(app.screen.query_one(PriceHistory).books), pilot)
        assert cache.fetches == fetched == len(chart.books)


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
        await wait_for(lambda: len(screen.query_one(PriceGrid).row_keys) >= 2, pilot, timeout=30)
        for _ in range(10):
            if screen.market == "Totals":
                break
            await pilot.press("m")
        assert screen.market == "Totals"
        await pilot.press("j", "g")
        await wait_for(lambda: isinstance(app.screen, MovementModal), pilot)
        chart = app.screen.query_one(PriceHistory)
        await wait_for(lambda: bool(chart.books), pilot)
        # (an exchange's lay prices, when one is in the book, come after the back sides)
        backs = [side for side in chart.sides if not is_lay(side)]
        assert backs == ["over", "under"] == chart.sides[:2] and chart.side == "over"
        assert "Over" in screen_text(app)
        await pilot.press("right")
        assert chart.side == "under" and "Under" in screen_text(app)
