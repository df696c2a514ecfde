"""`oddstui odds EVENT` and the desk's Event grid show the same prices for the same book and
moment: with no key, a batch command asks the running desk's built-in service (two services at
one seed requote on their own schedules, which is how they came to differ)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from oddstui import config
from oddstui.batch import DESK_NOTE
from oddstui.service import desk_service
from oddstui.tui.event.price_grid import PriceGrid
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, start_service, wait_for
from tests.tui.event.test_event_screen import open_event

SEED = "13"
BOOK = "Pinnacle"


@pytest.fixture(scope="module")
def calm() -> Iterator[Service]:
    """A world that requotes a few times a second (a price holds still long enough to compare)
    at 5x speed, as `oddstui --speed 5` runs it: a service of the command's own would differ."""
    service = start_service("--seed", SEED, "--speed", "5", "--updates-per-second", "3")
    yield service
    service.stop()


def live_event_quoted_by(service: Service, book: str) -> int:
    live = httpx.get(service.base_url + "/events/live", params={"apiKey": DEMO_KEY}).json()
    for event in live:
        record = httpx.get(
            service.base_url + "/odds",
            params={"apiKey": DEMO_KEY, "eventId": event["id"], "bookmakers": book},
        ).json()
        if any(m["name"] == "ML" and m.get("odds") for m in record["bookmakers"].get(book, [])):
            return int(event["id"])
    raise AssertionError(f"no live event quoted by {book}")


async def batch_odds(event_id: int) -> tuple[dict[str, float], str]:
    """`oddstui odds EVENT --json` as a trader runs it: (ML prices at BOOK, its stderr)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "oddstui", "odds", str(event_id), "--seed", SEED,
        "--bookmakers", BOOK, "--json",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=dict(os.environ),
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 90)
    assert process.returncode == 0, err.decode()
    record: dict[str, Any] = json.loads(out)
    (ml,) = [m for m in record["bookmakers"][BOOK] if m["name"] == "ML"]
    return dict(ml["lines"][0]["prices"]), err.decode()


def grid_prices(grid: PriceGrid, sides: list[str]) -> dict[str, float]:
    return {side: float(grid.cell_text(BOOK, side).lstrip("▲▼ ")) for side in sides}


async def test_oddstui_odds_and_the_event_grid_agree(calm: Service, home: Path) -> None:
    event_id = live_event_quoted_by(calm, BOOK)
    desk_service.publish(calm.base_url, int(SEED))  # as `oddstui` does for its own service
    app = build_app(
        calm.base_url,
        DEMO_KEY,
        config.Settings(exchange_commission=0.0),
        watchlist_path=home / "watchlist.toml",
    )
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_event(app, pilot, event_id)
        grid = screen.query_one(PriceGrid)
        await wait_for(lambda: BOOK in grid.row_keys, pilot, timeout=30)
        sides = [c.key for c in grid.columns if c.key in ("home", "draw", "away")]
        assert len(sides) >= 2
        compared = 0
        for _ in range(6):  # a price may move while the command runs: then look again
            before = grid_prices(grid, sides)
            printed, said = await batch_odds(event_id)
            await pilot.pause(0.5)  # the feed's message of any move meanwhile reaches the grid
            if grid_prices(grid, sides) != before:
                continue
            assert DESK_NOTE in said
            assert {side: printed[side] for side in sides} == before
            compared += 1
            break
        assert compared, "the price moved during every one of six commands"
    desk_service.withdraw()
    assert not desk_service.desk_service_path().exists()
