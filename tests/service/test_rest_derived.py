"""Derived feeds: arbitrage (with its invariant), value bets and dropping odds."""

from __future__ import annotations

import math

import httpx
import pytest

from tests.service.conftest import Service
from tests.service.helpers import error, get, ok, parse_time
from tests.waiting import eventually

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


@pytest.fixture(scope="module")
def all_books(http: httpx.Client) -> str:
    return ",".join(b["name"] for b in ok(http.get("/bookmakers")) if b["active"])


def test_arbitrage_invariant(http: httpx.Client, service: Service, all_books: str) -> None:
    # Stale quotes across 250 books give some arbitrage.
    arbs = eventually(
        lambda: ok(get(http, service, "/arbitrage-bets", bookmakers=all_books, limit=500)),
        "arbitrage",
    )
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
    """Home and away alone always look like an arbitrage in football (the draw is missing): the
    service must never list that. Checked on a quoted match whose two-way reading is an arbitrage
    among a few books, so the answer is short and nothing is cut off by its limit."""
    books = all_books.split(",")[:30]
    events = ok(get(http, service, "/events", sport="football", status="pending", limit=50))
    for event in events:
        record = ok(get(http, service, "/odds", eventId=event["id"], bookmakers=",".join(books)))
        lines = [
            market["odds"][0]
            for markets in record["bookmakers"].values()
            for market in markets
            if market["name"] == "ML" and {"home", "draw", "away"} <= set(market["odds"][0])
        ]
        if len(lines) >= 3:
            break
    else:
        raise AssertionError("no pending football match quoted on ML by three of 30 books")
    best_home = max(float(line["home"]) for line in lines)
    best_away = max(float(line["away"]) for line in lines)
    assert 1 / best_home + 1 / best_away < 1, "read two-way, this match's ML is an arbitrage"

    arbs = ok(
        get(
            http,
            service,
            "/arbitrage-bets",
            bookmakers=",".join(books),
            limit=500,
            includeEventDetails="true",
        )
    )
    assert len(arbs) < 500, "the answer is whole"
    ours = [a for a in arbs if a["eventId"] == event["id"] and a["market"]["name"] == "ML"]
    # may be empty: a three-way ML arbitrage on this event is not always listed
    assert all(len(a["legs"]) == 3 for a in ours), ours
    for arb in arbs:
        assert set(arb["event"]) == {"home", "away", "date", "sport", "league"}
        assert all(isinstance(v, str) for v in arb["event"].values())
        if arb["event"]["sport"] == "Football" and arb["market"]["name"] == "ML":
            assert {leg["side"] for leg in arb["legs"]} == {"home", "draw", "away"}


def test_arbitrage_only_uses_the_requested_books(http: httpx.Client, service: Service) -> None:
    wanted = {"Bet365", "Pinnacle", "Unibet", "SingBet", "William Hill"}
    arbs = eventually(
        lambda: ok(get(http, service, "/arbitrage-bets", bookmakers=",".join(sorted(wanted)))),
        "arbitrage among five books",
    )
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
    # Bet365's noisy prices beat the sharp fair price somewhere.
    bets = eventually(
        lambda: ok(
            get(http, service, "/value-bets", bookmaker="Bet365", includeEventDetails="true")
        ),
        "Bet365 value bets",
    )
    evs = [b["expectedValue"] for b in bets]
    assert evs == sorted(evs, reverse=True)
    for bet in bets:
        assert bet["bookmaker"] == "Bet365" and bet["expectedValue"] > 0
        side = bet["betSide"]
        price = float(bet["bookmakerOdds"][side])
        fair = float(bet["market"][side])
        # EV% = d / d_fair - 1, with the fair price shown to 3 decimals: its rounding (0.0005)
        # moves the figure by up to d / d_fair² · 0.0005 (0.3 % at 9.3 against 1.28)
        rounding = price / fair**2 * 0.0005 * 100
        assert math.isclose(bet["expectedValue"], (price / fair - 1) * 100, abs_tol=0.05 + rounding)
        assert set(bet["event"]) == {"home", "away", "date", "sport", "league"}
        parse_time(bet["expectedValueUpdatedAt"])
    # The sport filter, on a sport that has just had one.
    sport = ok(get(http, service, f"/events/{bets[0]['eventId']}"))["sport"]["slug"]
    of_sport = eventually(
        lambda: ok(get(http, service, "/value-bets", bookmaker="Bet365", sport=sport)),
        f"Bet365 value bets in {sport}",
    )
    assert all("event" not in b for b in of_sport)
    for event_id in list({b["eventId"] for b in of_sport})[:5]:
        assert ok(get(http, service, f"/events/{event_id}"))["sport"]["slug"] == sport


def test_value_bets_errors(http: httpx.Client, service: Service) -> None:
    error(get(http, service, "/value-bets"), 400, "bookmaker", "required")
    error(get(http, service, "/value-bets", bookmaker="bet365"), 400, "bookmaker")
    league = ok(get(http, service, "/leagues", sport="football"))[0]["slug"]
    error(
        get(http, service, "/value-bets", bookmaker="Bet365", league=league), 400, "league", "sport"
    )


def test_dropping_odds(http: httpx.Client, service: Service) -> None:
    # Lines of the quoted events have dropped since they opened.
    items = eventually(
        lambda: ok(get(http, service, "/dropping-odds", includeEventDetails="true", limit=200)),
        "dropping odds",
    )
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
    def pages() -> tuple[list, list, list]:
        first = ok(get(http, service, "/dropping-odds", limit=5))
        second = ok(get(http, service, "/dropping-odds", limit=5, page=2))
        return first, second, ok(get(http, service, "/dropping-odds", limit=10))

    # Prices keep moving between calls, so a page boundary may shift: wait for three answers
    # taken between two moves.
    first, second, both = eventually(
        pages,
        "two full pages that make the page of ten",
        lambda a: len(a[2]) == 10 and a[0] + a[1] == a[2],
    )
    assert len(first) == len(second) == 5
    assert ok(get(http, service, "/dropping-odds", page=100000)) == []
    big = eventually(
        lambda: ok(get(http, service, "/dropping-odds", minDrop=5, limit=200)), "drops of 5 %"
    )
    assert all(i["odds"]["drop"]["sinceOpening"] >= 5 for i in big)
    totals = eventually(
        lambda: ok(get(http, service, "/dropping-odds", markets="totals,ml", limit=200)),
        "drops in Totals or ML",
    )
    assert {i["market"]["name"] for i in totals} <= {"Totals", "ML"}
    day = eventually(
        lambda: ok(get(http, service, "/dropping-odds", timeWindow="24h", limit=50)),
        "drops over 24h",
    )
    day_drops = [i["odds"]["drop"]["24h"] for i in day]
    # non-empty: day is eventually()'s truthy answer
    assert all(d is not None for d in day_drops)
    assert day_drops == sorted(day_drops, reverse=True)
    football = eventually(
        lambda: ok(
            get(
                http,
                service,
                "/dropping-odds",
                sport="football",
                limit=20,
                includeEventDetails="true",
            )
        ),
        "football drops",
    )
    assert all(i["event"]["sport"]["slug"] == "football" for i in football)
    league = football[0]["event"]["league"]["slug"]

    def in_league(**where: str) -> list:
        return ok(get(http, service, "/dropping-odds", includeEventDetails="true", **where))

    one = eventually(lambda: in_league(sport="football", league=league), f"drops in {league}")
    assert all(i["event"]["league"]["slug"] == league for i in one)
    many = eventually(lambda: in_league(leagues=league), f"drops in leagues={league}")
    assert all(i["event"]["league"]["slug"] == league for i in many)


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


def test_dropping_odds_sort_recent_and_kickoff(http: httpx.Client, service: Service) -> None:
    """`sort` (today's interface): the latest move first, or the soonest kick-off first."""
    recent = eventually(
        lambda: ok(get(http, service, "/dropping-odds", sort="recent", limit=50)), "recent drops"
    )
    moved = [item["lastMovedAt"] or 0 for item in recent]
    assert moved == sorted(moved, reverse=True)
    soonest = eventually(
        lambda: ok(
            get(
                http, service, "/dropping-odds", sort="kickoff", limit=50,
                includeEventDetails="true",
            )
        ),
        "drops by kick-off",
    )  # fmt: skip
    dates = [item["event"]["date"] for item in soonest]
    assert dates == sorted(dates)
    answer = get(http, service, "/dropping-odds", sort="largest")
    assert answer.status_code == 400 and "sort" in answer.json()["error"]
