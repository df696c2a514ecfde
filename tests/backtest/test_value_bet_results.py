"""A backtest's value bets are settled by the one rule (`book.settlement.grade_leg`) when the
recording holds their event's final score: won, lost, void, half results, or open."""

from __future__ import annotations

from oddstui.api.models import parse_event
from oddstui.backtest.engine import settle_value_bets
from oddstui.backtest.findings import ValueBetSeen
from oddstui.book.oddsbook import OddsBook


def event(event_id: int, status: str, home: int, away: int) -> dict:
    return {
        "id": event_id,
        "home": "Home",
        "away": "Away",
        "date": "2026-11-26T15:00:00Z",
        "status": status,
        "sport": {"name": "Football", "slug": "football"},
        "league": {"name": "League", "slug": "league"},
        "scores": {"home": home, "away": away, "periods": {
            "p1": {"home": home, "away": 0}, "p2": {"home": 0, "away": away},
            "ft": {"home": home, "away": away}}},
    }  # fmt: skip


def bet(event_id: int, market: str, hdp: float | None, side: str) -> ValueBetSeen:
    return ValueBetSeen(event_id, market, (hdp, None), "Bet365", side, 0.0, 2.0, 1.9, 5.0, False)


def test_value_bets_are_settled_from_the_final_score() -> None:
    book = OddsBook(clock=lambda: 0.0)
    book.update_events(
        [
            parse_event(event(1, "settled", 2, 1)),
            parse_event(event(2, "live", 1, 0)),
            parse_event(event(3, "cancelled", 0, 0)),
        ]
    )
    bets = [
        bet(1, "ML", None, "home"),
        bet(1, "Totals", 2.75, "over"),
        bet(1, "Spread HT", -1.0, "home"),
        bet(1, "Corners Totals", 9.5, "over"),
        bet(2, "ML", None, "home"),
        bet(3, "ML", None, "away"),
    ]
    settle_value_bets(book, bets)
    assert [b.result for b in bets] == [1.0, 0.5, 1.0, None, None, 0.0]
    assert bets[0].profit == 1.0 and bets[1].profit == 0.5 and bets[4].profit is None
