"""The find (`F`) on a trading board, against the real built-in service: the `⚠ hidden` count
counts only the suspect rows the find would let through, and `escape` after a confirmed find
clears it (issue 32, small lies L1 and L2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from oddstui.tui.boards.trading_board import TradingBoard
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.kit.table_filter import TableFilter
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, wait_for

NOTHING = "qqzzxnothing"


@pytest.mark.parametrize("mode", ["arbitrage", "value"])
async def test_the_hidden_count_follows_the_find_and_escape_clears_it(
    fast_service: Service, home: Path, mode: str
) -> None:
    # Every edge above 0.01 % is suspect: the board hides nearly all its rows, and counts them.
    (home / "config.toml").write_text("suspect_profit = 0.01\n")
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode=mode)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, TradingBoard) and screen.hide_suspects
        table = screen.query_one(PatchTable)
        await wait_for(lambda: screen.suspects_hidden >= 3, pilot, timeout=60)
        table.focus()
        await pilot.press("F", *NOTHING, "enter")
        await wait_for(lambda: table.query_text == NOTHING, pilot)
        assert app.focused is table
        # No row has that text: none of the hidden ones would show either.
        await wait_for(lambda: screen.suspects_hidden == 0, pilot)
        summary = str(screen.query_one(".summary").render())
        assert "hidden" not in summary, summary

        await pilot.press("escape")
        await wait_for(lambda: table.query_text == "", pilot)
        assert not screen.query_one(TableFilter).display
        assert app.screen is screen  # escape cleared the find, it did not leave the board
        await wait_for(lambda: screen.suspects_hidden >= 3, pilot)


async def test_a_fresh_boards_first_row_turning_suspect_is_hidden(
    fast_service: Service,
) -> None:
    """Small lie L3: the cursor of a fresh board sits on its first row by default; that row
    turning suspect is hidden like any other (only a row the trader moved to stays, marked)."""
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="arbitrage")
    async with app.run_test(size=(160, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, TradingBoard) and screen.hide_suspects
        table = screen.query_one(PatchTable)
        await wait_for(lambda: table.row_count >= 3, pilot, timeout=60)
        assert not screen.holding
        app.settings.suspect_profit = 0.01  # every edge turns suspect at the next judging
        await wait_for(lambda: screen.suspects_hidden >= 3, pilot)
        shown_suspect = [key for key in table.row_keys if screen.suspects.get(key)]
        assert shown_suspect == [], shown_suspect
