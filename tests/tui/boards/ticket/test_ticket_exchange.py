"""The stake ticket with an exchange leg, opened from the arbitrage board of the real service:
the exchange price is shown net of commission, every leg's stake and return stay on screen at
80x24 and equal the equal-return stakes computed here (MATHS.md), and the commission is named."""

from __future__ import annotations

import pytest

from oddstui import config
from oddstui.tui.boards.arbitrage.arb_screen import ArbitrageScreen
from oddstui.tui.boards.ticket.stake_modal import StakeTicketModal
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, wait_for
from tests.tui.screen_text import screen_text

pytestmark = pytest.mark.slow  # handed out first (tests/conftest.py)

COMMISSION = 0.05
TOTAL = 100.0


def on_an_exchange(bookmaker: str) -> bool:
    return "Exchange" in bookmaker


def equal_returns(prices: list[float], total: float) -> tuple[list[float], float]:
    """MATHS.md: `s_i = T · q_i / S`, and every outcome returns `R = T / S`."""
    implied = [1 / price for price in prices]
    s = sum(implied)
    return [total * q / s for q in implied], total / s


async def test_an_exchange_leg_is_marked_and_every_return_stays_on_screen(
    fast_service: Service,
) -> None:
    settings = config.Settings(exchange_commission=COMMISSION)
    app = build_app(
        fast_service.base_url, DEMO_KEY, settings, start_mode="arbitrage", with_feed=False
    )
    async with app.run_test(size=(80, 24)) as pilot:
        board = app.screen
        assert isinstance(board, ArbitrageScreen)
        table = board.query_one(PatchTable)

        def exchange_row() -> str | None:
            return next(
                (
                    key
                    for key, row in board.arbs.rows.items()
                    if row.vanished_at is None
                    and any(on_an_exchange(leg.bookmaker) for leg in row.legs)
                    and str(key) in {str(k.value) for k in table.rows}
                ),
                None,
            )

        async def open_ticket() -> tuple[StakeTicketModal, dict[str, float]] | None:
            """The ticket of an arbitrage with an exchange leg and the row's raw prices; None
            when the board's refresh replaced the row between the move and the key press."""
            await wait_for(exchange_row, pilot, timeout=30)
            key = exchange_row()
            assert key is not None
            raw = {leg.bookmaker: leg.price for leg in board.arbs.rows[key].legs}
            table.focus()
            table.move_cursor(row=table.get_row_index(key))
            await pilot.press("enter")
            await wait_for(lambda: isinstance(app.screen, StakeTicketModal), pilot)
            modal = app.screen
            assert isinstance(modal, StakeTicketModal)
            await wait_for(lambda: modal.plan is not None, pilot)
            if {leg.bookmaker for leg in modal.legs} == set(raw):
                return modal, raw
            await pilot.press("escape")
            await wait_for(lambda: app.screen is board, pilot)
            return None

        for _ in range(3):
            if opened := await open_ticket():
                break
        else:
            raise AssertionError("three times the row changed before its ticket opened")
        modal, raw = opened
        # Unrounded stakes, so the screen shows the formula's own figures to the cent.
        modal.query_one("#step").value = ""  # type: ignore[attr-defined]

        def shows_equal_returns() -> bool:
            # "48.00" is on screen with the step at 1 too: wait for the unrounded plan first.
            if modal.plan is None or modal.plan.step is not None:
                return False
            text = screen_text(app)
            prices = [leg.price for leg in modal.legs]
            stakes, back = equal_returns(prices, TOTAL)
            return all(f"{stake:.2f}" in text for stake in stakes) and f"{back:.2f}" in text

        await wait_for(shows_equal_returns, pilot, timeout=30)
        text = screen_text(app)
        legs = modal.legs
        assert len(legs) >= 2 and any(on_an_exchange(leg.bookmaker) for leg in legs)
        for leg in legs:
            if on_an_exchange(leg.bookmaker):
                # The price the service quotes, net of commission on winnings: 1 + (d-1)(1-c).
                paid = 1 + (raw[leg.bookmaker] - 1) * (1 - COMMISSION)
                assert leg.price == paid and leg.commission == COMMISSION
                assert f"{paid:.3f}*" in text or f"{paid:.2f}*" in text
            else:
                assert leg.price == raw[leg.bookmaker] and leg.commission == 0
        assert "net of 5% commission" in text
        stakes, back = equal_returns([leg.price for leg in legs], TOTAL)
        assert modal.plan is not None
        # non-empty: one stake per leg, and an arbitrage has two legs or more
        for shown, stake in zip(modal.plan.stakes, stakes, strict=True):
            assert abs(shown - stake) < 1e-9
        assert abs(sum(modal.plan.stakes) - TOTAL) < 1e-9
        assert back > TOTAL  # still an arbitrage after the commission
