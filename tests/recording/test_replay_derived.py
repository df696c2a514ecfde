"""A replay's arbitrage, value bets and dropping odds, made again from the replayed prices:
the pure part, called directly on a state built from records."""

from __future__ import annotations

from typing import Any

import pytest

from oddstui.derived.dropping import DropQuery
from oddstui.recording import FeedMessage, Snapshot
from oddstui.replay.derived import ReplayDerived
from oddstui.replay.dropping import ReplayDropping
from oddstui.replay.state import ReplayState

T0 = 1_790_000_000.0
TENNIS = {"name": "Tennis", "slug": "tennis"}
FOOTBALL = {"name": "Football", "slug": "football"}
BOOKS = ["Bet365", "Unibet", "Pinnacle"]


def event(event_id: int, sport: dict[str, str], status: str = "live") -> dict[str, Any]:
    return {
        "id": event_id,
        "home": f"Home {event_id}",
        "away": f"Away {event_id}",
        "date": "2026-11-26T03:00:00.000Z",
        "sport": sport,
        "league": {"name": "League", "slug": "league"},
        "status": status,
    }


def ml(stamp: str, **prices: str) -> list[dict[str, Any]]:
    return [{"name": "ML", "updatedAt": stamp, "odds": [prices]}]


def state_with(*records: dict[str, Any]) -> ReplayState:
    state = ReplayState()
    events = tuple({k: v for k, v in r.items() if k not in ("bookmakers", "urls")} for r in records)
    state.install(Snapshot(T0, events, records))
    return state


def tennis_match(bet365_home: str = "2.200") -> dict[str, Any]:
    return {
        **event(1, TENNIS),
        "urls": {"Bet365": "https://bet365.example/e/1"},
        "bookmakers": {
            "Bet365": ml("2026-11-26T03:10:00.000Z", home=bet365_home, away="1.700"),
            "Unibet": ml("2026-11-26T03:12:30.000Z", home="1.800", away="2.050"),
            "Pinnacle": ml("2026-11-26T03:11:00.000Z", home="1.950", away="1.950"),
        },
    }


def test_an_arbitrage_across_two_books_with_its_legs_stakes_and_stamps() -> None:
    derived = ReplayDerived(state_with(tennis_match()))
    (item,) = derived.arbitrage_bets(BOOKS, 50, details=False)
    # Best home 2.200 at Bet365, best away 2.050 at Unibet: 1/2.2 + 1/2.05 < 1.
    implied = 1 / 2.2 + 1 / 2.05
    assert item["eventId"] == 1 and item["market"] == {"name": "ML"}
    assert item["impliedProbability"] == pytest.approx(implied, abs=1e-6)
    assert item["profitMargin"] == pytest.approx((1 / implied - 1) * 100, abs=1e-4)
    legs = {leg["side"]: leg for leg in item["legs"]}
    assert (legs["home"]["bookmaker"], legs["home"]["odds"]) == ("Bet365", "2.200")
    assert (legs["away"]["bookmaker"], legs["away"]["odds"]) == ("Unibet", "2.050")
    assert legs["home"]["label"] == "Home 1" and legs["away"]["label"] == "Away 1"
    assert legs["home"]["href"] == "https://bet365.example/e/1"
    assert legs["home"]["directLink"].startswith("https://bet365.example/e/1#bet=ML")
    assert legs["away"]["href"] == "N/A" == legs["away"]["directLink"]  # no url recorded
    assert legs["home"]["updatedAt"] == "2026-11-26T03:10:00.000Z"
    assert item["updatedAt"] == "2026-11-26T03:12:30.000Z"  # the newer leg
    stakes = {s["side"]: s for s in item["optimalStakes"]}
    assert stakes["home"]["stake"] + stakes["away"]["stake"] == pytest.approx(100.0)
    payouts = {stakes[side]["stake"] * float(legs[side]["odds"]) for side in stakes}
    # non-empty: stakes holds home and away (summed above)
    assert all(p == pytest.approx(stakes["home"]["potentialReturn"]) for p in payouts)
    assert "event" not in item


def test_only_the_asked_books_count_and_the_details_name_the_event() -> None:
    derived = ReplayDerived(state_with(tennis_match()))
    # Pinnacle's 1.950 home and Unibet's 2.050 away sum over 1.
    assert derived.arbitrage_bets(["Pinnacle", "Unibet"], 50, details=False) == []
    (item,) = derived.arbitrage_bets(BOOKS, 50, details=True)
    assert item["event"] == {
        "home": "Home 1",
        "away": "Away 1",
        "date": "2026-11-26T03:00:00.000Z",
        "sport": "Tennis",
        "league": "League",
    }
    assert derived.arbitrage_bets(BOOKS, 0, details=False) == []


def test_a_two_way_price_where_a_draw_can_happen_is_no_arbitrage() -> None:
    match = {**tennis_match(), **event(2, FOOTBALL)}
    assert ReplayDerived(state_with(match)).arbitrage_bets(BOOKS, 50, details=False) == []


def test_an_ended_match_lists_nothing() -> None:
    match = {**tennis_match(), "status": "settled"}
    derived = ReplayDerived(state_with(match))
    assert derived.arbitrage_bets(BOOKS, 50, False) == []
    assert derived.value_bets("Bet365", None, None, False) == []


def test_a_value_bet_against_the_sharp_fair_price() -> None:
    derived = ReplayDerived(state_with(tennis_match()))
    # Pinnacle 1.95/1.95: fair 2.000 each side. Bet365's 2.200 home is 10 % over it; its 1.700
    # away and all of Unibet's prices but 2.050 away (EV 2.5 %) are under.
    (bet,) = derived.value_bets("Bet365", None, None, False)
    assert (bet["bookmaker"], bet["betSide"]) == ("Bet365", "home")
    assert bet["expectedValue"] == pytest.approx(10.0, abs=1e-3)
    assert bet["market"] == {"name": "ML", "home": "2.000", "away": "2.000"}
    assert bet["bookmakerOdds"]["home"] == "2.200"
    assert bet["bookmakerOdds"]["updatedAt"] == "2026-11-26T03:10:00.000Z"
    assert bet["expectedValueUpdatedAt"] == "2026-11-26T03:11:00.000Z"  # the sharp's, newer
    (unibet,) = derived.value_bets("Unibet", None, None, False)
    assert unibet["betSide"] == "away" and unibet["expectedValue"] == pytest.approx(2.5, abs=1e-3)
    assert derived.value_bets("Pinnacle", None, None, False) == []  # the sharp book itself
    assert derived.value_bets("Bet365", "football", None, False) == []
    assert len(derived.value_bets("Bet365", "tennis", "league", True)) == 1


def test_a_price_that_moves_is_judged_again() -> None:
    state = state_with(tennis_match())
    derived = ReplayDerived(state)
    assert len(derived.arbitrage_bets(BOOKS, 50, False)) == 1
    assert len(derived.value_bets("Bet365", None, None, False)) == 1
    moved = {
        "type": "updated",
        "id": 1,
        "bookie": "Bet365",
        "markets": ml("2026-11-26T03:14:00.000Z", home="1.900", away="1.700"),
    }
    state.apply(FeedMessage(T0 + 60, 5, moved))
    assert derived.arbitrage_bets(BOOKS, 50, False) == []
    assert derived.value_bets("Bet365", None, None, False) == []
    state.apply(
        FeedMessage(T0 + 61, 6, {**moved, "markets": tennis_match()["bookmakers"]["Bet365"]})
    )
    assert len(derived.arbitrage_bets(BOOKS, 50, False)) == 1


def test_a_market_that_does_not_parse_is_left_out() -> None:
    match = tennis_match()
    match["bookmakers"]["Bet365"] = [{"name": "ML", "odds": [{"home": "cheap", "away": "1.700"}]}]
    assert ReplayDerived(state_with(match)).arbitrage_bets(BOOKS, 50, False) == []


def test_what_is_kept_of_an_ended_match_is_let_go() -> None:
    state = state_with(tennis_match())
    derived = ReplayDerived(state)
    assert len(derived.arbitrage_bets(BOOKS, 50, False)) == 1
    assert len(derived.value_bets("Bet365", None, None, False)) == 1
    state.apply(FeedMessage(T0 + 60, None, {"type": "status", "id": 1, "status": "settled"}))
    assert derived.arbitrage_bets(BOOKS, 50, False) == []
    assert derived._quotes == {}
    assert all(kept == {} for kept in derived._arbs.values())
    assert all(kept == {} for kept in derived._values.values())


def quote(
    kind: str, at: float, seq: int, bookie: str, home: str, away: str, event_id: int = 2
) -> FeedMessage:
    markets = [{"name": "ML", "updatedAt": "x", "odds": [{"home": home, "away": away}]}]
    message = {"type": kind, "id": event_id, "bookie": bookie, "markets": markets}
    return FeedMessage(at, seq, message)


def dropping(derived: ReplayDropping, **asked: Any) -> list[dict[str, Any]]:
    query: dict[str, Any] = {
        "sport": None,
        "leagues": [],
        "markets": [],
        "window": "opening",
        "min_drop": 0.0,
        "limit": 50,
        "page": 1,
        "details": False,
    }
    return derived.dropping_odds(DropQuery(**{**query, **asked}))


def test_a_drop_is_measured_only_where_the_recording_holds_the_opening() -> None:
    # Match 1 was quoted before the recording began (its snapshot); match 2 opens in it.
    state = state_with(tennis_match())
    state.install(Snapshot(T0 + 1, (event(2, TENNIS, "pending"),), ()))
    records = [
        quote("created", T0 + 10, 1, "Pinnacle", "2.50", "1.55"),
        quote("created", T0 + 10, 2, "Bet365", "2.40", "1.60"),  # not a sharp book
        quote("updated", T0 + 100, 3, "Pinnacle", "2.45", "1.57"),  # held 10 s: noise
        quote("updated", T0 + 110, 4, "Pinnacle", "2.20", "1.70"),  # holds: a drop of 12 %
        quote("updated", T0 + 120, 5, "Pinnacle", "1.90", "1.95", event_id=1),  # opened before
    ]
    for record in records:
        state.apply(record)
    state.apply(FeedMessage(T0 + 300, None, {"type": "score", "id": 2, "scores": {}}))
    derived = ReplayDropping(state, ReplayDerived(state))
    (item,) = dropping(derived, details=True)
    assert set(item) == {
        "eventId", "event", "market", "betSide", "odds", "lastMovedAt", "updatedAt"
    }  # fmt: skip
    assert item["eventId"] == 2 and item["betSide"] == "home"
    assert item["market"] == {"name": "ML"}
    assert item["odds"]["opening"] == 2.5 and item["odds"]["current"] == 2.2
    assert item["odds"]["drop"] == {"sinceOpening": 12.0, "12h": None, "24h": None, "48h": None}
    assert item["lastMovedAt"] == int((T0 + 110) * 1000)
    assert item["event"]["sport"] == TENNIS and item["event"]["home"] == "Home 2"
    assert dropping(derived, min_drop=12.5) == []
    assert dropping(derived, window="12h") == []  # the recording is shorter than 12 hours
    assert dropping(derived, markets=["Totals"]) == []
    assert dropping(derived, sport="football") == []
    assert dropping(derived, page=2) == []
    # Suspended, then settled: nothing is measured of it any more.
    state.apply(FeedMessage(T0 + 310, 6, {"type": "deleted", "id": 2, "bookie": "Pinnacle"}))
    assert dropping(derived) == []
    state.apply(FeedMessage(T0 + 320, None, {"type": "status", "id": 2, "status": "settled"}))
    assert state.drops.reference(2) is None
