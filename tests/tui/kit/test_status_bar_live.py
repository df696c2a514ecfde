"""With a board paused, opening the ticket or the help does not freeze the status bar (issue
21): behind the modal it still shows the feed's seq moving, on the real service."""

from __future__ import annotations

import re

from oddstui.tui.boards.arbitrage.arb_screen import ArbitrageScreen
from oddstui.tui.kit.help_modal import HelpModal
from oddstui.tui.kit.status_bar import StatusBar
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, wait_for

SEQ = re.compile(r"seq (\d+)")


def shown_seq(bar: StatusBar) -> int | None:
    found = SEQ.search(str(bar.render()))
    return int(found.group(1)) if found else None


async def test_a_paused_board_keeps_its_status_bar_live_behind_the_help(
    fast_service: Service,
) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="arbitrage")
    async with app.run_test(size=(120, 40)) as pilot:
        board = app.screen
        assert isinstance(board, ArbitrageScreen)
        bar = board.query_one(StatusBar)
        await wait_for(lambda: app.hub.status.state == "live", pilot, timeout=30)
        await wait_for(lambda: shown_seq(bar) is not None, pilot)
        await pilot.press("p")
        assert board.paused
        await pilot.press("question_mark")
        await wait_for(lambda: isinstance(app.screen, HelpModal), pilot)
        at_open = shown_seq(bar)
        assert at_open is not None
        # The feed moves on (60x world): the bar behind the help follows it.
        await wait_for(lambda: (shown_seq(bar) or 0) > at_open, pilot, timeout=20)
        assert board.paused and isinstance(app.screen, HelpModal)
