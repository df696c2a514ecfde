"""`enter` opens the highlighted row's arbitrage by its identity (event, market, line), never by
index (issue 31): the board re-sorting between the key and its handling opens the same one."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable
from textual.widgets.data_table import RowKey

from oddstui.tui.boards.arbitrage.arb_screen import ArbitrageScreen
from oddstui.tui.boards.ticket.stake_modal import StakeTicketModal
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, wait_for


async def test_enter_opens_the_row_it_was_pressed_on_while_the_board_resorts(
    fast_service: Service, home: Path
) -> None:
    # The service's arbitrages are enough: no feed, so the rows move only when told to.
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="arbitrage", with_feed=False)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, ArbitrageScreen)
        screen.hide_suspects = False
        table = screen.query_one(PatchTable)
        await wait_for(lambda: table.row_count >= 3, pilot, timeout=30)
        screen.paused = True  # no redraw of our own between the steps below
        keys = list(table.row_keys)
        chosen = keys[1]
        table.move_cursor(row=1, animate=False)
        assert table.highlighted_key() == chosen
        selected = DataTable.RowSelected(table, 1, RowKey(chosen))  # what `enter` posts
        # The board re-sorts before the message is handled: the row goes down and, nothing
        # chosen yet, the cursor stays on the best row (trading_board.arrange_table).
        table.order_rows([keys[2], keys[0], chosen, *keys[3:]])
        table.move_cursor(row=1, animate=False)
        await pilot.pause()
        assert table.highlighted_key() != chosen
        screen.post_message(selected)
        await wait_for(lambda: isinstance(app.screen, StakeTicketModal), pilot)
        ticket = app.screen
        assert isinstance(ticket, StakeTicketModal)
        row = screen.arbs.rows[chosen]
        assert ticket.ticket_title.endswith(row.line_text)
        assert [(leg.side, leg.bookmaker) for leg in ticket.opened] == [
            (leg.side, leg.bookmaker) for leg in row.legs
        ]
        await pilot.press("escape")
        await wait_for(lambda: app.screen is screen, pilot)

        # A plain `enter` on a highlighted row opens that row's ticket too.
        table.focus()
        other = table.row_keys[0]
        table.move_cursor(row=0, animate=False)
        await pilot.press("enter")
        await wait_for(lambda: isinstance(app.screen, StakeTicketModal), pilot)
        ticket = app.screen
        assert isinstance(ticket, StakeTicketModal)
        assert ticket.ticket_title.endswith(screen.arbs.rows[other].line_text)
