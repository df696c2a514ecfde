"""The stake ticket opened from the arbitrage board of the real service."""

from __future__ import annotations

import base64

import pytest

from oddstui.book.stakes import capped_stakes, rounded_stakes
from oddstui.tui.boards.arbitrage.arb_screen import ArbitrageScreen
from oddstui.tui.boards.ticket.stake_modal import StakeTicketModal
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, wait_for
from tests.tui.screen_text import screen_text


async def set_input(pilot: object, modal: StakeTicketModal, widget: str, text: str) -> None:
    field = modal.query_one(widget)
    field.value = text  # type: ignore[attr-defined]
    await pilot.pause(0.05)  # type: ignore[attr-defined]


async def test_stake_ticket_numbers_refusals_copy_and_cancel(fast_service: Service) -> None:
    # The service's arbitrages are enough for the ticket: no feed, so the test stays light.
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="arbitrage", with_feed=False)
    async with app.run_test(size=(120, 40)) as pilot:
        board = app.screen
        assert isinstance(board, ArbitrageScreen)
        table = board.query_one(PatchTable)
        await wait_for(lambda: table.row_count > 0, pilot, timeout=20)
        table.focus()
        await pilot.press("enter")
        await wait_for(lambda: isinstance(app.screen, StakeTicketModal), pilot)
        modal = app.screen
        assert isinstance(modal, StakeTicketModal)
        await wait_for(lambda: modal.plan is not None, pilot)
        assert len(modal.legs) >= 2

        # Default: 100 total, rounded to 1, exactly what book.stakes gives for the shown prices.
        expected = rounded_stakes(modal.prices, 100, 1)
        assert modal.plan is not None
        assert modal.plan.stakes == expected.stakes
        assert modal.plan.guaranteed == pytest.approx(expected.guaranteed)
        text = screen_text(app)
        for stake in expected.stakes:
            assert f"{stake:.2f}" in text
        assert f"worst case {expected.guaranteed:+.2f}" in text
        assert f"best case {expected.best_case:+.2f}" in text
        assert f"total {sum(expected.stakes):.2f}" in text  # the rounded total
        for stake, price in zip(expected.stakes, modal.prices, strict=True):
            assert f"{stake * price:.2f}" in text  # each leg's return
        assert sum(modal.plan.stakes) <= 100  # never more than the total typed

        # A total of 250 rounded to 5: rounded down by default, up on `u`.
        await set_input(pilot, modal, "#stake", "250")
        await set_input(pilot, modal, "#step", "5")
        assert modal.plan.stakes == rounded_stakes(modal.prices, 250, 5).stakes
        assert sum(modal.plan.stakes) <= 250
        await pilot.press("u")
        assert modal.round_up and "round up to" in screen_text(app)
        assert modal.plan.stakes == rounded_stakes(modal.prices, 250, 5, round_up=True).stakes
        assert sum(modal.plan.stakes) >= 250 and "rounded up to 5" in screen_text(app)
        await pilot.press("u")
        assert not modal.round_up

        # Leg 1 capped at 40, not rounded.
        await pilot.press("m")
        await set_input(pilot, modal, "#stake", "40")
        await set_input(pilot, modal, "#step", "")
        assert modal.capped_leg == 0
        assert modal.plan.stakes == pytest.approx(capped_stakes(modal.prices, 0, 40))
        assert "cap leg 1" in screen_text(app)
        while modal.capped_leg is not None:
            await pilot.press("m")

        # Refusals: the reason inline, no stakes.
        for stake, step, reason in (
            ("ten", "1", "total stake must be a number, not 'ten'"),
            ("-5", "1", "total stake cannot be negative"),
            ("0", "1", "total stake must be above zero"),
            ("10", "25", "rounding step 25 is larger than the total stake 10"),
        ):
            await set_input(pilot, modal, "#stake", stake)
            await set_input(pilot, modal, "#step", step)
            assert modal.plan is None
            assert reason in screen_text(app)

        # `c` copies the stakes (Textual writes them as OSC 52 to the terminal).
        await set_input(pilot, modal, "#stake", "100")
        await set_input(pilot, modal, "#step", "1")
        await pilot.press("c")
        copied = app.clipboard
        lines = copied.splitlines()
        assert len(lines) == len(modal.legs) + 2
        for leg, stake, line in zip(modal.legs, modal.plan.stakes, lines[1:], strict=False):
            assert line.startswith(leg.bookmaker) and line.endswith(f"{stake:.2f}")
        assert base64.b64encode(copied.encode()).decode()  # what OSC 52 carries

        # escape cancels; enter accepts with the plan.
        await pilot.press("escape")
        assert isinstance(app.screen, ArbitrageScreen)
        board.open_ticket()
        await wait_for(lambda: isinstance(app.screen, StakeTicketModal), pilot)
        second = app.screen
        assert isinstance(second, StakeTicketModal)
        await wait_for(lambda: second.plan is not None, pilot)
        await pilot.press("enter")
        await wait_for(lambda: isinstance(app.screen, ArbitrageScreen), pilot)
        plan = second.plan  # what it was closed with (prices may have moved meanwhile)
        assert plan is not None
        stakes = " / ".join(f"{stake:.2f}" for stake in plan.stakes)

        def stakes_said() -> bool:
            return any(stakes in str(note.message) for note in app._notifications)

        await wait_for(stakes_said, pilot)  # the toast comes after the screen changed
