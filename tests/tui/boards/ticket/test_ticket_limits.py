"""No leg of a ticket is ever staked over its bookmaker's `max` (issue 31), whatever the legs,
limits, totals, steps and keys: a total or a capped leg (`m`), round up or down (`u`), the
safer rounding (`o`), a new step (`r`), and the legs' limits changing under an open ticket.

The tickets come from `StakeTicketModal` itself (the arbitrage board is the one board that opens
it; test_ticket_limits_service.py opens them from that board against the real service)."""

from __future__ import annotations

import asyncio

from hypothesis import given, settings
from hypothesis import strategies as st
from textual.app import App

from oddstui.tui.boards.ticket.live_legs import TicketRead
from oddstui.tui.boards.ticket.stake_modal import StakeTicketModal
from oddstui.tui.boards.ticket.stakes import TicketLeg
from tests.book.strategies import arbitrage_prices

limit_values = st.one_of(st.none(), st.integers(min_value=1, max_value=3000).map(float))
keys = st.lists(st.sampled_from(["m", "u", "o", "step"]), min_size=1, max_size=6)


@st.composite
def tickets(draw: st.DrawFn) -> tuple[list[TicketLeg], list[float | None]]:
    prices = draw(arbitrage_prices())
    limits = draw(st.lists(limit_values, min_size=len(prices), max_size=len(prices)))
    later = draw(st.lists(limit_values, min_size=len(prices), max_size=len(prices)))
    legs = [
        TicketLeg(f"side{i}", f"Book{i}", price, limit=limit)
        for i, (price, limit) in enumerate(zip(prices, limits, strict=True))
    ]
    return legs, later


def within(ticket: StakeTicketModal) -> None:
    plan = ticket.plan
    if plan is None:
        assert ticket.error  # refused, saying why
        return
    for stake, leg in zip(plan.stakes, ticket.legs, strict=True):
        assert leg.limit is None or stake <= leg.limit + 1e-9, (stake, leg.limit, ticket.legs)


async def run(
    legs: list[TicketLeg], later: list[float | None], total: int, step: str, pressed: list[str]
) -> None:
    ticket = StakeTicketModal("A v B · ML", legs, stake=str(total), step=step)
    app: App[None] = App()
    async with app.run_test(size=(100, 40)) as pilot:
        await app.push_screen(ticket)
        await pilot.pause()
        within(ticket)
        for key in pressed:
            if key == "step":
                ticket.query_one("#step").value = "50" if step != "50" else ""  # type: ignore[attr-defined]
            else:
                await pilot.press(key)
            await pilot.pause()
            within(ticket)
        # The limits change under the open ticket: the stakes follow at once.
        ticket.follow(
            TicketRead(
                tuple(
                    TicketLeg(leg.side, leg.bookmaker, leg.price, limit=limit)
                    for leg, limit in zip(legs, later, strict=True)
                )
            )
        )
        await pilot.pause()
        within(ticket)


@settings(max_examples=12, deadline=None)
@given(
    tickets(), st.integers(min_value=20, max_value=100_000), st.sampled_from(["", "1", "20"]), keys
)
def test_no_key_path_stakes_a_leg_over_its_max(
    case: tuple[list[TicketLeg], list[float | None]], total: int, step: str, pressed: list[str]
) -> None:
    legs, later = case
    asyncio.run(run(legs, later, total, step, pressed))
