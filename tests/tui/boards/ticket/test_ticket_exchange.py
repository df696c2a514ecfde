"""The stake ticket with an exchange leg, the legs given (the desk behind it runs on recorded
answers, as in the snapshot tests): every leg's stake and return stay on screen at 80x24, and the
commission is named."""

from __future__ import annotations

from pathlib import Path

from oddstui.book.exchange import net_back
from oddstui.tui.boards.ticket.stake_modal import StakeTicketModal
from oddstui.tui.boards.ticket.stakes import TicketLeg
from tests.tui.recorded import recorded_app
from tests.tui.screen_text import screen_text


async def test_an_exchange_leg_is_marked_and_every_return_stays_on_screen(tmp_path: Path) -> None:
    paid = net_back(2.10, 0.05)
    legs = [
        TicketLeg("over", "Bet365", 2.20, "Totals Over 2.5"),
        TicketLeg("under", "Betfair Exchange", paid, "Totals Under 2.5", commission=0.05),
    ]
    modal = StakeTicketModal("Millbrook United v Lakeshore Wanderers · Totals 2.5", legs)
    app = recorded_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(modal)
        await pilot.pause(0.2)
        assert modal.plan is not None
        text = screen_text(app)
        assert f"{paid:.3f}*" in text or f"{paid:.2f}*" in text
        assert "net of 5% commission" in text
        for stake, back in zip(modal.plan.stakes, modal.plan.returns, strict=True):
            assert f"{stake:.2f}" in text and f"{back:.2f}" in text
