"""An exchange with lay prices on the Event screen of the desk against the real service.

The built-in world quotes no lay prices, so one exchange quote as the public service sends it
(`layHome`, `layDraw`, `layAway`) goes into the desk's live book beside the service's prices.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from oddstui import config
from oddstui.api.messages import OddsMessage
from oddstui.api.models import parse_market
from oddstui.tui.event.event_screen import EventScreen
from oddstui.tui.event.price_grid import PriceGrid
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, start_service, wait_for
from tests.tui.event.test_movement_service import get
from tests.tui.screen_text import screen_text

LAYS = {"home": 2.10, "draw": 3.60, "away": 3.90, "layHome": 2.12, "layDraw": 3.65, "layAway": 3.95}


@pytest.fixture(scope="module")
def service() -> Iterator[Service]:
    running = start_service("--speed", "30", "--seed", "29", "--updates-per-second", "100")
    yield running
    running.stop()


def header(app: object) -> str:
    screen: EventScreen = app.screen  # type: ignore[attr-defined]
    grid = screen.query_one(PriceGrid)
    return screen_text(app).splitlines()[grid.region.y]  # type: ignore[arg-type]


async def test_lay_columns_margins_and_the_hidden_column_marker(
    service: Service, home: Path
) -> None:
    pending = get(service, "/events", sport="football", status="pending", limit=100)
    event_id = max(pending, key=lambda e: e.get("bookmakerCount") or 0)["id"]
    app = build_app(service.base_url, DEMO_KEY, config.Settings(exchange_commission=0.0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        app.open_event(event_id)
        await wait_for(
            lambda: isinstance(app.screen, EventScreen) and bool(app.screen.query(PriceGrid)),
            pilot,
        )
        screen: EventScreen = app.screen  # type: ignore[assignment]
        grid = screen.query_one(PriceGrid)
        await wait_for(lambda: len(grid.row_keys) >= 3 and screen.market == "ML", pilot, 30)
        quote = parse_market({"name": "ML", "odds": [{k: str(v) for k, v in LAYS.items()}]})
        with app.hub.reading() as book:  # the feed's own lock, as the feed thread applies
            assert book is not None
            book.apply(
                OddsMessage(
                    "updated", 1, None, event_id, "Smarkets", None, (quote,), time.monotonic()
                )
            )
        await wait_for(lambda: "Smarkets" in grid.row_keys, pilot, 30)
        await wait_for(lambda: "layHome" in [c.key for c in grid.columns], pilot, 30)

        # 80 wide: the lay and age columns do not fit, and the header says so.
        assert header(app).rstrip().endswith("+4 more ›")
        assert [c.key for c in grid.hidden_columns] == ["layHome", "layDraw", "layAway", "age"]
        # Every book quoting home, draw and away has a margin, the exchange's a small one.
        for key in grid.row_keys:
            if all(grid.cell_text(key, side) not in ("", "–") for side in ("home", "draw", "away")):
                assert grid.cell_text(key, "margin").endswith("%"), key
        assert float(grid.cell_text("Smarkets", "margin").rstrip("%")) < 5

        await pilot.resize_terminal(130, 30)
        await wait_for(lambda: grid.hidden_columns == [], pilot, 30)
        assert "more ›" not in header(app) and "Lay 1" in header(app)
        assert grid.cell_text("Smarkets", "layHome") == "2.12"
