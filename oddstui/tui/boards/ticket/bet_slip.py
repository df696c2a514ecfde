"""What the ticket's `enter` records in the bet log: its legs at the stakes accepted. No textual."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from oddstui.betlog.bets import Bet, BetLeg
from oddstui.book.exchange import quoted_back
from oddstui.tui.boards.ticket.stakes import StakePlan, TicketLeg


@dataclass(frozen=True, slots=True)
class BetContext:
    """What the ticket's legs are on: the board it came from, the event, market and line."""

    board: str
    event_id: int
    event_name: str
    market: str
    hdp: float | None
    label: str = ""
    sport: str = ""
    league: str = ""


def quoted_price(leg: TicketLeg) -> float:
    """The price as quoted: the ticket counts an exchange leg net of commission."""
    return quoted_back(leg.price, leg.commission)


def bet_from_ticket(
    context: BetContext, plan: StakePlan, legs: Sequence[TicketLeg], now: float
) -> Bet:
    bet_legs = tuple(
        BetLeg(
            market=context.market,
            hdp=context.hdp,
            label=context.label,
            side=leg.side,
            bookmaker=leg.bookmaker,
            price=quoted_price(leg),
            commission=leg.commission,
            stake=stake,
        )
        for leg, stake in zip(legs, plan.stakes, strict=True)
    )
    return Bet(
        event_id=context.event_id,
        placed_at=now,
        board=context.board,
        event_name=context.event_name,
        legs=bet_legs,
        sport=context.sport,
        league=context.league,
    )
