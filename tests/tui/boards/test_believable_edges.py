"""What the desk's Arbitrage board shows by default looks like a real board's, against the real
built-in service at 1000 updates a second: its rows top out under 10 %, and at most a tenth of
them stand at 5 % or more (the world takes down prices it has not followed; the board hides
suspect rows, an in-play leg older than 15 s among them)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from oddstui.tui.boards.arbitrage.arb_screen import ArbitrageScreen
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, start_service, ticks_pass, wait_for

LOOKS = 3


@pytest.fixture(scope="module")
def busy_service() -> Iterator[Service]:
    service = start_service("--seed", "3", "--updates-per-second", "1000")
    yield service
    service.stop()


@pytest.mark.slow
async def test_the_default_arbitrage_rows_top_out_under_ten_percent(
    busy_service: Service,
) -> None:
    app = build_app(busy_service.base_url, DEMO_KEY, start_mode="arbitrage")
    async with app.run_test(size=(160, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, ArbitrageScreen) and screen.hide_suspects
        table = screen.query_one(PatchTable)
        await wait_for(lambda: app.hub.status.state == "live", pilot, timeout=60)
        await wait_for(lambda: table.row_count >= 10, pilot, timeout=60)
        profits: list[float] = []
        for _ in range(LOOKS):
            await ticks_pass(app, pilot, 5)
            shown = [screen.arbs.rows[key] for key in table.row_keys if key in screen.arbs.rows]
            live = [row.profit_pct for row in shown if row.vanished_at is None]
            assert live, "the board shows no arbitrage"
            assert max(live) < 10.0, sorted(live)[-5:]
            profits += live
        big = sum(1 for profit in profits if profit >= 5.0)
        assert big <= len(profits) / 10, (big, len(profits), sorted(profits)[-10:])
