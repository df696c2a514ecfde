"""NO_COLOR: the cursor row is reversed (docs/screens.md), since colour cannot mark it."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable

from oddstui.tui.boards.arbitrage.arb_screen import ArbitrageScreen
from oddstui.tui.browse.live import LiveScreen
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, wait_for


async def test_the_cursor_row_is_reversed_under_no_color(
    fast_service: Service, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="live", with_feed=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(lambda: isinstance(app.screen, LiveScreen), pilot)
        for key, screen in (("", LiveScreen), ("4", ArbitrageScreen)):
            if key:
                await pilot.press(key)
            await wait_for(lambda screen=screen: isinstance(app.screen, screen), pilot)
            tables = list(app.screen.query(DataTable))
            assert tables, screen
            for table in tables:
                for focused in (True, False):
                    if focused:
                        table.focus()
                    else:
                        app.screen.set_focus(None)
                    await pilot.pause()
                    style = table.get_component_rich_style("datatable--cursor")
                    assert style.reverse, (screen, focused, style)
