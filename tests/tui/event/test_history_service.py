"""A settled event's Event screen shows its closing odds (GET /historical/odds), labelled so."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from oddstui import config
from oddstui.api.models import parse_odds_record
from oddstui.tui.event.closing_odds import ClosingOdds, closing_rows
from oddstui.tui.event.event_screen import EventScreen
from oddstui.tui.event.price_grid import PriceGrid
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, start_service, ticks_pass, wait_for
from tests.tui.screen_text import screen_text


@pytest.fixture(scope="module")
def service() -> Iterator[Service]:
    service = start_service("--seed", "31")
    yield service
    service.stop()


def get(service: Service, path: str, **params: Any) -> Any:
    response = httpx.get(service.base_url + path, params={**params, "apiKey": DEMO_KEY}, timeout=10)
    response.raise_for_status()
    return response.json()


def a_settled_event(service: Service) -> dict[str, Any]:
    now = datetime.now(UTC)
    span = {
        "from": (now - timedelta(days=30)).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "to": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    for league in get(service, "/leagues", sport="football"):
        found = get(service, "/historical/events", sport="football", league=league["slug"], **span)
        settled = [e for e in found if e["status"] == "settled"]
        if settled:
            return settled[0]  # type: ignore[no-any-return]
    raise AssertionError("no settled football event in the last 30 days")


async def test_a_settled_event_shows_its_closing_odds(service: Service, home: Path) -> None:
    event = a_settled_event(service)
    books = get(service, "/bookmakers/selected")["bookmakers"]
    truth = parse_odds_record(
        get(service, "/historical/odds", eventId=event["id"], bookmakers=",".join(books))
    )
    expected = closing_rows(truth)
    assert expected, "the service has closing odds for it"

    app = build_app(service.base_url, DEMO_KEY, config.Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.2)
        app.open_event(event["id"])
        await wait_for(
            lambda: isinstance(app.screen, EventScreen) and bool(app.screen.query(ClosingOdds)),
            pilot,
        )
        closing = app.screen.query_one(ClosingOdds)
        await wait_for(lambda: bool(closing.rows), pilot)
        assert closing.rows == expected
        assert not app.screen.query_one(PriceGrid).display  # the live grid is not shown
        market, line, bookmaker, prices = expected[0]

        def closing_odds_painted() -> bool:  # the rows are set before the screen is painted
            text = screen_text(app)
            return all(
                part in text
                for part in ("Closing odds (closing)", "Prices (closing)", bookmaker)
            ) and prices.split("  ")[0] in text

        await wait_for(closing_odds_painted, pilot)
        await wait_for(lambda: event["home"] in screen_text(app), pilot)  # the header loads apart
        await ticks_pass(app, pilot)  # the live grid's tick must not take the place back
        assert app.screen.query_one(ClosingOdds).display
        assert not app.screen.query_one("#no-coverage").display


def test_closing_rows_follow_the_odds_format() -> None:
    record = parse_odds_record(
        {
            "id": 1,
            "home": "A",
            "away": "B",
            "date": "2026-09-20T13:00:00Z",
            "status": "settled",
            "sport": {"name": "Football", "slug": "football"},
            "league": {"name": "L", "slug": "l"},
            "scores": {"home": 1, "away": 0, "periods": {}},
            "urls": {},
            "bookmakers": {
                "Zed": [{"name": "ML", "odds": [{"home": "2.50", "draw": "3.20", "away": "3.00"}]}],
                "Acme": [
                    {"name": "Totals", "odds": [{"hdp": 2.5, "over": "1.90", "under": "1.95"}]},
                    {"name": "ML", "odds": [{"home": "2.40", "draw": "3.30", "away": "3.10"}]},
                ],
            },
        }
    )
    rows = closing_rows(record, "fractional")
    assert [(m, line, b) for m, line, b, _ in rows] == [
        ("ML", "–", "Acme"),
        ("ML", "–", "Zed"),
        ("Totals", "2.5", "Acme"),
    ]
    assert rows[1][3] == "Home 6/4  Draw 11/5  Away 2/1"
