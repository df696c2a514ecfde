"""The Bets screen's cells and summary, from bets made here (pure code)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from oddstui.betlog.bets import Bet, BetLeg, bet_records
from oddstui.tui.bets.bet_rows import leg_cells, summary
from oddstui.tui.bets.settling import settled_by_hand


def settled_bet() -> Bet:
    return Bet(
        event_id=5,
        placed_at=1_795_600_000.0,
        board="Arbitrage",
        event_name="Home FC v Away FC",
        legs=(
            BetLeg("ML", None, "home", "Pinnacle", 2.2, 46.0, result=1.0, settled_by="score",
                   close_price=2.0, close_fair=2.1),
            BetLeg("ML", None, "away", "SingBet", 1.9, 54.0, result=-1.0, settled_by="score"),
        ),
        id=3,
        settled_at=1_795_607_000.0,
        final_score="2-1",
    )  # fmt: skip


def test_cells_show_result_pnl_and_clv() -> None:
    bet = settled_bet()
    cells = {key: text.plain for key, text in leg_cells(bet, 0).items()}
    assert cells["bet"] == "#3" and cells["line"] == "ML" and cells["price"] == "2.20"
    assert cells["result"] == "won" and cells["pnl"] == "+55.20"
    assert cells["clv"] == f"{(2.2 / 2.1 - 1) * 100:+.1f}%"
    second = {key: text.plain for key, text in leg_cells(bet, 1).items()}
    assert second["result"] == "lost" and second["pnl"] == "-54.00"
    assert second["clv"] == "no quote"  # settled from the score: no sharp book quoted it


def test_a_blank_clv_says_why() -> None:
    bet = settled_bet()
    home, away = bet.legs
    still_open = replace(bet, legs=(replace(home, result=None, close_fair=None, close_price=None),
                                    away))  # fmt: skip
    assert still_open.clv_text(0) == "not yet"
    one_sided = replace(bet, legs=(replace(home, close_fair=None), away))
    assert one_sided.clv_text(0) == "partial"
    by_hand = [replace(leg, settled_by="hand", close_price=None, close_fair=None)
               for leg in bet.legs]  # fmt: skip
    assert replace(bet, legs=tuple(by_hand)).clv_text(0) == "by hand"
    void = replace(bet, legs=(home, replace(away, result=0.0)))
    assert void.clv_text(1) == "void"
    assert all(len(bet.clv_text(i)) <= 8 for bet in (still_open, one_sided) for i in (0, 1))


def test_summary_counts_open_and_settled_and_adds_the_pnl() -> None:
    bet = settled_bet()
    still_open = Bet(7, 1_795_600_100.0, "Arbitrage", "X v Y",
                     (BetLeg("Totals", 2.5, "over", "Bet365", 2.0, 50.0),))  # fmt: skip
    text = summary([still_open, bet]).plain
    assert text.startswith("2 bets · 1 open · P&L +1.20 · staked 150.00")
    assert f"CLV {(2.2 / 2.1 - 1) * 100:+.1f}% (1 legs)" in text
    assert "No bets yet" in summary([]).plain


def test_a_leg_settled_by_hand_and_reopened() -> None:
    bet = Bet(9, 1.0, "Arbitrage", "A v B",
              (BetLeg("Corners Spread", -1.5, "home", "Unibet", 2.3, 45.0),
               BetLeg("Corners Spread", -1.5, "away", "Betway", 1.9, 55.0)))  # fmt: skip
    one = settled_by_hand(bet, 0, 0.0, 100.0)
    assert one.status == "open" and one.settled_at is None
    both = settled_by_hand(one, 1, 1.0, 200.0)
    assert both.status == "settled" and both.settled_at == 200.0
    assert both.profit == pytest.approx(55.0 * 0.9)
    assert leg_cells(both, 1)["result"].plain == "won ✎"
    reopened = settled_by_hand(both, 1, None, 300.0)
    assert reopened.status == "open" and reopened.settled_at is None
    [first, second] = bet_records([both])
    assert first["result"] == "void" and second["settledBy"] == "hand"
