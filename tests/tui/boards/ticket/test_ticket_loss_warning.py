"""The ticket never shows a negative worst case without the warning (issue 21), on arbitrages of
the real service at 80x24: over totals, steps and both roundings, every loss on screen comes
with `⚠` in the warning colour, and the rounding it offers (`o`) does not lose."""

from __future__ import annotations

import re
from typing import Any

from oddstui.tui.boards.arbitrage.arb_screen import ArbitrageScreen
from oddstui.tui.boards.ticket.stake_modal import StakeTicketModal
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, wait_for
from tests.tui.screen_text import screen_text

WORST = re.compile(r"│ worst case ([+-]\d+\.\d\d)")
WARNED = "│ ⚠ "  # the warning line in the ticket (the board behind has a `⚠ rows` key)
CASES = [
    (stake, step, up)
    for stake in ("100", "37", "1000")
    for step in ("", "1", "5", "20", "50")
    for up in (False, True)
]


async def test_a_negative_worst_case_always_comes_with_the_warning(fast_service: Service) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="arbitrage", with_feed=False)
    async with app.run_test(size=(80, 24)) as pilot:
        board = app.screen
        assert isinstance(board, ArbitrageScreen)
        table = board.query_one(PatchTable)
        await wait_for(lambda: table.row_count > 0, pilot, timeout=20)
        table.focus()
        # Whether a rounding loses depends on the prices: arbitrages are tried in turn until
        # one rounding lost money and one safer rounding was offered.
        losses = offers = 0
        # non-empty: waited above for a row
        for row in range(min(8, table.row_count)):
            table.move_cursor(row=row)
            await pilot.press("enter")
            await wait_for(lambda: isinstance(app.screen, StakeTicketModal), pilot)
            modal = app.screen
            assert isinstance(modal, StakeTicketModal)
            lost, offered = await every_case(modal, pilot)
            losses, offers = losses + lost, offers + offered
            await pilot.press("escape")
            await wait_for(lambda: app.screen is board, pilot)
            if losses and offers:
                break
        assert losses > 0, "no rounding lost money: the warning was never put to the test"
        assert offers > 0


async def every_case(modal: StakeTicketModal, pilot: Any) -> tuple[int, int]:
    """Each case of `CASES` on the open ticket: its losses and safer roundings offered."""
    app = modal.app
    await wait_for(lambda: modal.plan is not None, pilot)
    warning = modal.query_one("#ticket-warning")
    losses = offers = 0
    for stake, step, up in CASES:
        modal.query_one("#stake").value = stake  # type: ignore[attr-defined]
        modal.query_one("#step").value = step  # type: ignore[attr-defined]
        if modal.round_up != up:
            await pilot.press("u")
        await pilot.pause(0.05)
        plan = modal.plan
        if plan is None:  # refused (a step too large for the total): said so inline
            assert "✗" in screen_text(app)
            continue
        text = screen_text(app)
        shown = WORST.search(text)
        assert shown is not None, text  # the worst case is on screen at 80x24
        if shown.group(1).startswith("-"):
            losses += 1
            assert WARNED in text and warning.has_class("-warning"), (stake, step, up, text)
        assert plan.loses == (WARNED in text)
        if plan.safer is not None:
            offers += 1
            await pilot.press("o")
            await pilot.pause(0.05)
            assert modal.plan is not None and not modal.plan.loses
            assert WARNED not in screen_text(app)
    return losses, offers
