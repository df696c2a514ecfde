"""The Event grid's export against the real service: every bookmaker of the market and line
shown, each side's price as a number, whatever the width."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from oddstui.tui.event.event_screen import EventScreen
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, wait_for
from tests.tui.live_picks import quoted_live


async def open_quoted_live(app: Any, pilot: Any, service: Service) -> tuple[Any, EventScreen]:
    """Open the Event screen of a live match that several books quote in play (most books stop
    in play); returns the match's view and the screen."""
    event_id = quoted_live(service)
    await wait_for(lambda: event_id in app.hub.board.events, pilot, 30)
    event = app.hub.board.events[event_id]
    app.open_event(event.id)
    await wait_for(lambda: isinstance(app.screen, EventScreen), pilot)
    screen = app.screen
    assert isinstance(screen, EventScreen)
    return event, screen


async def test_the_event_grid_exports_its_rows_as_data(
    fast_service: Service, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="live")
    async with app.run_test(size=(80, 24)) as pilot:
        busiest, screen = await open_quoted_live(app, pilot, fast_service)
        await wait_for(lambda: len(screen.rows) >= 2, pilot, timeout=30)
        # What the grid holds and its export, read in one step (prices move on).
        rows, market, line = screen.rows, screen.market, screen.line
        screen.action_export("json")
    (path,) = tmp_path.glob(f"oddstui-event-{busiest.id}-*.json")
    records = json.loads(path.read_text())
    assert len(records) == len(rows) >= 2
    assert market is not None and line is not None
    for record, row in zip(records, rows, strict=True):
        assert record["eventId"] == busiest.id and record["event"] == busiest.title
        assert record["market"] == market and record["line"] == line[0]
        assert record["bookmaker"] == row.bookmaker  # whole, at 80 columns too
        prices = [record[key] for key in record if key.endswith("Price")]
        assert prices == [figure.price for figure in row.prices]
        assert any(isinstance(price, float) and price > 1.0 for price in prices)
        assert record["ageSeconds"] is None or isinstance(record["ageSeconds"], float)


async def test_a_wide_event_screen_exports_every_market_it_shows(
    fast_service: Service, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="live")
    async with app.run_test(size=(200, 50)) as pilot:
        busiest, screen = await open_quoted_live(app, pilot, fast_service)
        await wait_for(lambda: screen.panels is not None and bool(screen.panels.beside), pilot, 30)
        assert screen.panels is not None
        shown = {screen.market, *(view.market for view in screen.panels.beside)}
        screen.action_export("json")
    (path,) = tmp_path.glob(f"oddstui-event-{busiest.id}-*.json")
    records = json.loads(path.read_text())
    assert len(shown) >= 2
    assert {record["market"] for record in records} == shown
