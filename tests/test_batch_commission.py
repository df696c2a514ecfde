"""`oddstui arbs` counts an exchange's leg net of the trader's commission, as the desk does."""

from __future__ import annotations

import pytest

from oddstui.api.models.derived import parse_arbitrage_bet
from oddstui.batch import paid_arbitrages


def item(away_book: str, away: float, home: float = 2.00) -> dict:
    s = 1 / home + 1 / away
    return {
        "id": f"{away_book}-{away}",
        "eventId": 7,
        "impliedProbability": s,
        "profitMargin": (1 / s - 1) * 100,
        "totalStake": 100,
        "market": {"name": "ML"},
        "legs": [
            {"bookmaker": "Bet365", "side": "home", "odds": str(home)},
            {"bookmaker": away_book, "side": "away", "odds": str(away)},
        ],
        "optimalStakes": [],
    }


def test_arbs_are_counted_net_of_commission_and_dropped_when_none_is_left() -> None:
    raw = [parse_arbitrage_bet(item(book, 2.04)) for book in ("Betfair Exchange", "Unibet")]
    kept = paid_arbitrages(raw, 0.05)
    # The exchange's 2.04 pays 1.988 net of 5 %: no arbitrage. Unibet's is as listed.
    assert [arb.id for arb in kept] == ["Unibet-2.04"]
    assert kept[0].profit_margin == pytest.approx(raw[1].profit_margin)
    assert len(paid_arbitrages(raw, 0.0)) == 2  # no commission: both stay

    (wide,) = paid_arbitrages([parse_arbitrage_bet(item("Betfair Exchange", 2.30))], 0.05)
    net = 1 + 1.30 * 0.95
    assert wide.profit_margin == pytest.approx((1 / (1 / 2.00 + 1 / net) - 1) * 100)
    returns = [stake.potential_return for stake in wide.optimal_stakes]
    assert sum(stake.stake for stake in wide.optimal_stakes) == pytest.approx(100)
    assert returns[0] == pytest.approx(returns[1])  # equal returns, the exchange's net
