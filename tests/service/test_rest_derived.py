"""Derived feeds: arbitrage (with its invariant), value bets and dropping odds."""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import httpx
import pytest

from tests.service.conftest import Service
from tests.service.helpers import error, get, ok, parse_time

ARB_FIELDS = {
    "id",
    "eventId",
    "impliedProbability",
    "profitMargin",
    "totalStake",
    "updatedAt",
    "market",
    "legs",
    "optimalStakes",
}
DROP_FIELDS = {"eventId", "market", "betSide", "odds", "lastMovedAt", "updatedAt"}
# Live prices that lag the match make value bets and arbitrage; speed 10 makes them soon.
SERVICE_OPTIONS = {"speed": 10, "updates_per_second": 500}


def eventually(fetch: Callable[[], list], seconds: float = 20.0) -> list:
    """Poll until the list is not empty (the world needs a moment of live play)."""
    deadline = time.monotonic() + seconds
    while True:
        found = fetch()
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.5)


@pytest.fixture(scope="module")
def all_books(http: httpx.Client) -> str:
    return ",".join(b["name"] for b in ok(http.get("/bookmakers")) if b["active"])


def test_arbitrage_invariant(http: httpx.Client, service: Service, all_books: str) -> None:
    arbs = eventually(
        lambda: ok(get(http, service, "/arbitrage-bets", bookmakers=all_books, limit=500))
    )
    assert arbs, "stale quotes across 250 books give some arbitrage"
    margins = [a["profitMargin"] for a in arbs]
    assert margins == sorted(margins, reverse=True)
    for arb in arbs:
        assert set(arb) == ARB_FIELDS
        assert 0 < arb["impliedProbability"] < 1
        prices = [float(leg["odds"]) for leg in arb["legs"]]
        s = sum(1 / p for p in prices)
        assert math.isclose(s, arb["impliedProbability"], abs_tol=1e-5)
        assert math.isclose(arb["profitMargin"], (1 / s - 1) * 100, abs_tol=1e-3)
        stakes = arb["optimalStakes"]
        assert [(x["bookmaker"], x["side"]) for x in stakes] == [
            (leg["bookmaker"], leg["side"]) for leg in arb["legs"]
        ]
        assert math.isclose(sum(x["stake"] for x in stakes), arb["totalStake"], rel_tol=1e-6)
        returns = [x["stake"] * p for x, p in zip(stakes, prices, strict=True)]
        for value, stake in zip(returns, stakes, strict=True):
            assert math.isclose(value, returns[0], rel_tol=1e-6)
            assert math.isclose(stake["potentialReturn"], value, rel_tol=1e-6)
        assert returns[0] > arb["totalStake"]
        sides = {leg["side"] for leg in arb["legs"]}
        assert len(sides) == len(arb["legs"]) >= 2
        assert sides in (
            {"home", "away"},
            {"home", "draw", "away"},
            {"over", "under"},
            {"yes", "no"},
            {"odd", "even"},
        )
        if arb["market"]["name"] == "ML" and sides == {"home", "away"}:
            assert "draw" not in sides  # two-way ML only in sports without a draw
        parse_time(arb["updatedAt"])


def test_two_way_moneyline_is_never_an_arb_in_football(
    http: httpx.Client, service: Service, all_books: str
) -> None:
    arbs = ok(
        get(
            http,
            service,
            "/arbitrage-bets",
            bookmakers=all_books,
            limit=500,
            includeEventDetails="true",
        )
    )
    for arb in arbs:
        assert set(arb["event"]) == {"home", "away", "date", "sport", "league"}
        assert all(isinstance(v, str) for v in arb["event"].values())
        if arb["event"]["sport"] == "Football" and arb["market"]["name"] == "ML":
            assert {leg["side"] for leg in arb["legs"]} == {"home", "draw", "away"}


def test_arbitrage_only_uses_the_requested_books(http: httpx.Client, service: Service) -> None:
    wanted = {"Bet365", "Pinnacle", "Unibet", "SingBet", "William Hill"}
    arbs = ok(get(http, service, "/arbitrage-bets", bookmakers=",".join(sorted(wanted))))
    assert len(arbs) <= 50
    assert all(leg["bookmaker"] in wanted for arb in arbs for leg in arb["legs"])


def test_arbitrage_limits(http: httpx.Client, service: Service, all_books: str) -> None:
    assert len(ok(get(http, service, "/arbitrage-bets", bookmakers=all_books))) <= 50
    few = ok(get(http, service, "/arbitrage-bets", bookmakers=all_books, limit=3))
    assert len(few) <= 3
    error(
        get(http, service, "/arbitrage-bets", bookmakers=all_books, limit=501), 400, "limit", "500"
    )
    error(get(http, service, "/arbitrage-bets", bookmakers=all_books, limit=0), 400, "limit")
    error(get(http, service, "/arbitrage-bets"), 400, "bookmakers", "required")
    error(get(http, service, "/arbitrage-bets", bookmakers="Bet365,Nope"), 400, "Nope")


def test_value_bets(http: httpx.Client, service: Service) -> None:
    bets = eventually(
        lambda: ok(
            get(http, service, "/value-bets", bookmaker="Bet365", includeEventDetails="true")
        )
    )
    assert bets, "Bet365's noisy prices beat the sharp fair price somewhere"
    evs = [b["expectedValue"] for b in bets]
    assert evs == sorted(evs, reverse=True)
    for bet in bets:
        assert bet["bookmaker"] == "Bet365" and bet["expectedValue"] > 0
        side = bet["betSide"]
        price = float(bet["bookmakerOdds"][side])
        fair = float(bet["market"][side])
        # EV% = d / d_fair - 1, with the fair price shown to 3 decimals
        assert math.isclose(bet["expectedValue"], (price / fair - 1) * 100, abs_tol=0.2)
        assert set(bet["event"]) == {"home", "away", "date", "sport", "league"}
        parse_time(bet["expectedValueUpdatedAt"])
    tennis = ok(get(http, service, "/value-bets", bookmaker="Bet365", sport="tennis"))
    assert all("event" not in b for b in tennis)
    tennis_ids = {b["eventId"] for b in tennis}
    for event_id in list(tennis_ids)[:5]:
        assert ok(get(http, service, f"/events/{event_id}"))["sport"]["slug"] == "tennis"


def test_value_bets_errors(http: httpx.Client, service: Service) -> None:
    error(get(http, service, "/value-bets"), 400, "bookmaker", "required")
    error(get(http, service, "/value-bets", bookmaker="bet365"), 400, "bookmaker")
    league = ok(get(http, service, "/leagues", sport="football"))[0]["slug"]
    error(
        get(http, service, "/value-bets", bookmaker="Bet365", league=league), 400, "league", "sport"
    )


def test_dropping_odds(http: httpx.Client, service: Service) -> None:
    items = eventually(
        lambda: ok(get(http, service, "/dropping-odds", includeEventDetails="true", limit=200))
    )
    assert items, "lines of the quoted events have dropped since they opened"
    drops = [i["odds"]["drop"]["sinceOpening"] for i in items]
    assert drops == sorted(drops, reverse=True)
    for item in items:
        assert DROP_FIELDS <= set(item) <= DROP_FIELDS | {"event"}
        assert item["betSide"] in ("home", "away", "over", "under")
        odds = item["odds"]
        assert odds["drop"]["sinceOpening"] >= 0
        expected = (odds["opening"] - odds["current"]) / odds["opening"] * 100
        assert math.isclose(odds["drop"]["sinceOpening"], expected, abs_tol=0.01)
        assert set(item["event"]["sport"]) == {"name", "slug"}
        assert isinstance(item["updatedAt"], int)


def test_dropping_odds_filters_and_paging(http: httpx.Client, service: Service) -> None:
    eventually(lambda: ok(get(http, service, "/dropping-odds", limit=10, page=2)))
    # Prices keep moving between calls, so a page boundary may shift; three tries.
    for _ in range(3):
        first = ok(get(http, service, "/dropping-odds", limit=5))
        second = ok(get(http, service, "/dropping-odds", limit=5, page=2))
        both = ok(get(http, service, "/dropping-odds", limit=10))
        if first + second == both:
            break
    assert len(first) == len(second) == 5
    assert first + second == both
    assert ok(get(http, service, "/dropping-odds", page=100000)) == []
    big = ok(get(http, service, "/dropping-odds", minDrop=5, limit=200))
    assert all(i["odds"]["drop"]["sinceOpening"] >= 5 for i in big)
    totals = ok(get(http, service, "/dropping-odds", markets="totals,ml", limit=200))
    assert {i["market"]["name"] for i in totals} <= {"Totals", "ML"}
    day = ok(get(http, service, "/dropping-odds", timeWindow="24h", limit=50))
    day_drops = [i["odds"]["drop"]["24h"] for i in day]
    assert all(d is not None for d in day_drops)
    assert day_drops == sorted(day_drops, reverse=True)
    football = ok(
        get(http, service, "/dropping-odds", sport="football", limit=20, includeEventDetails="true")
    )
    assert all(i["event"]["sport"]["slug"] == "football" for i in football)
    league = football[0]["event"]["league"]["slug"] if football else None
    if league:
        one = ok(
            get(
                http,
                service,
                "/dropping-odds",
                sport="football",
                league=league,
                includeEventDetails="true",
            )
        )
        assert all(i["event"]["league"]["slug"] == league for i in one)
        many = ok(get(http, service, "/dropping-odds", leagues=league, includeEventDetails="true"))
        assert many == one or all(i["event"]["league"]["slug"] == league for i in many)


def test_dropping_odds_rules(http: httpx.Client, service: Service) -> None:
    league = ok(get(http, service, "/leagues", sport="football"))[0]["slug"]
    error(get(http, service, "/dropping-odds", limit=201), 400, "limit", "200")
    error(get(http, service, "/dropping-odds", page=0), 400, "page")
    error(get(http, service, "/dropping-odds", timeWindow="6h"), 400, "timeWindow")
    error(get(http, service, "/dropping-odds", minDrop="lots"), 400, "minDrop")
    error(get(http, service, "/dropping-odds", markets="Corners,Nope"), 400, "markets")
    error(get(http, service, "/dropping-odds", league=league), 400, "league", "sport")
    error(
        get(http, service, "/dropping-odds", sport="football", league=league, leagues=league),
        400,
        "league",
    )
    assert len(ok(get(http, service, "/dropping-odds"))) <= 50
