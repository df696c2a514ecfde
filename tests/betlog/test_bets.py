"""A logged bet's figures as rules: a leg's P&L net of commission, a bet with no legs."""

from __future__ import annotations

import pytest

from oddstui.betlog.bets import OPEN, SETTLED, Bet, BetLeg
from oddstui.book.settlement import LOST, WON


def leg(result: float | None, *, price: float = 3.0, commission: float = 0.0) -> BetLeg:
    return BetLeg(
        "ML", None, "home", "Betfair Exchange", price, 100.0, commission=commission, result=result
    )


def bet(*legs: BetLeg) -> Bet:
    return Bet(event_id=1, placed_at=0.0, board="Arbitrage", event_name="A v B", legs=legs)


def test_a_winning_exchange_leg_pays_its_winnings_less_commission() -> None:
    # 100 at 3.0 wins 200; 5 % commission on winnings leaves 190.
    assert leg(WON, commission=0.05).profit == pytest.approx(190.0)
    assert leg(WON).profit == pytest.approx(200.0)


def test_commission_is_never_charged_on_a_loss() -> None:
    assert leg(LOST, commission=0.05).profit == pytest.approx(-100.0)


def test_a_bet_with_no_legs_is_open_and_has_no_profit() -> None:
    """A damaged log can hand back a bet with no legs: it is nothing settled, not a zero."""
    empty = bet()
    assert empty.status == OPEN
    assert empty.profit is None


def test_a_bet_is_settled_only_when_every_leg_is() -> None:
    assert bet(leg(WON), leg(None)).status == OPEN
    assert bet(leg(WON), leg(None)).profit is None
    both = bet(leg(WON), leg(LOST))
    assert both.status == SETTLED and both.profit == pytest.approx(100.0)
