"""Odds endpoints: /odds, /odds/multi with includeSeq, /odds/updated, /odds/movements,
/historical/odds; shapes and the 30-bookmaker and 10-event limits."""

from __future__ import annotations

import time
from datetime import timedelta

import httpx
import pytest

from tests.service.conftest import Service
from tests.service.helpers import error, get, ok, parse_time, rfc3339

RECORD_FIELDS = {
    "id",
    "home",
    "away",
    "homeId",
    "awayId",
    "date",
    "status",
    "league",
    "sport",
    "scores",
    "bookmakers",
    "bookmakerIds",
    "urls",
}
SIDES = {"home", "draw", "away", "over", "under", "yes", "no"}
MAIN = "ML,Spread,Totals"  # /odds/updated requires markets (at most 20)
SERVICE_OPTIONS = {"updates_per_second": 1000}


@pytest.fixture(scope="module")
def books(http: httpx.Client) -> list[str]:
    return [b["name"] for b in ok(http.get("/bookmakers")) if b["active"]]


@pytest.fixture(scope="module")
def quoted(http: httpx.Client, service: Service, books: list[str]) -> dict:
    """A pending football event and 30 bookmakers, most of which quote it."""
    for event in ok(get(http, service, "/events", sport="football", status="pending", limit=50)):
        if event["bookmakerCount"] >= 10:
            return event
    raise AssertionError("no quoted football event")


def check_record(record: dict, wanted: list[str]) -> None:
    assert set(record) == RECORD_FIELDS
    assert set(record["bookmakers"]) <= set(wanted)
    for bookie, markets in record["bookmakers"].items():
        assert bookie in record["urls"]
        names = [m["name"] for m in markets]
        assert len(names) == len(set(names))
        for market in markets:
            assert set(market) == {"name", "updatedAt", "odds"}
            parse_time(market["updatedAt"])
            hdps = [entry["hdp"] for entry in market["odds"] if "hdp" in entry]
            assert hdps == sorted(hdps) or any("label" in e for e in market["odds"])
            for entry in market["odds"]:
                prices = {k: v for k, v in entry.items() if k in SIDES}
                assert prices, entry
                for price in prices.values():
                    assert isinstance(price, str) and float(price) > 1.0
                if market["name"] == "ML":
                    assert "hdp" not in entry


def test_odds_of_one_event_with_30_bookmakers(
    http: httpx.Client, service: Service, books: list[str], quoted: dict
) -> None:
    wanted = books[:30]
    record = ok(get(http, service, "/odds", eventId=quoted["id"], bookmakers=",".join(wanted)))
    check_record(record, wanted)
    assert record["id"] == quoted["id"]
    assert record["bookmakers"], "some of 30 bookmakers quote the event"
    market_names = {m["name"] for ms in record["bookmakers"].values() for m in ms}
    assert {"ML", "Spread", "Totals"} <= market_names


def test_odds_limits_and_errors(
    http: httpx.Client, service: Service, books: list[str], quoted: dict
) -> None:
    error(
        get(http, service, "/odds", eventId=quoted["id"], bookmakers=",".join(books[:31])),
        400,
        "bookmakers",
        "30",
    )
    error(get(http, service, "/odds", eventId=quoted["id"]), 400, "bookmakers", "required")
    error(get(http, service, "/odds", bookmakers="Bet365"), 400, "eventId", "required")
    error(get(http, service, "/odds", eventId="abc", bookmakers="Bet365"), 400, "eventId")
    error(get(http, service, "/odds", eventId=quoted["id"], bookmakers="bet365"), 400, "bet365")
    error(get(http, service, "/odds", eventId=99999999999, bookmakers="Bet365"), 404)
    error(
        get(http, service, "/odds", eventId=quoted["id"], bookmakers="Bet365", includeSeq="maybe"),
        400,
        "includeSeq",
    )


def test_include_seq_header(http: httpx.Client, service: Service, quoted: dict) -> None:
    plain = get(http, service, "/odds", eventId=quoted["id"], bookmakers="Bet365")
    assert "x-service-seq" not in plain.headers
    first = get(
        http, service, "/odds", eventId=quoted["id"], bookmakers="Bet365", includeSeq="true"
    )
    ok(first)
    time.sleep(0.3)
    second = get(
        http,
        service,
        "/odds/multi",
        eventIds=str(quoted["id"]),
        bookmakers="Bet365",
        includeSeq="true",
    )
    ok(second)
    assert int(second.headers["x-service-seq"]) >= int(first.headers["x-service-seq"]) >= 0


def test_multi_up_to_10_events(http: httpx.Client, service: Service, books: list[str]) -> None:
    events = ok(get(http, service, "/events", sport="football", status="pending", limit=11))
    ids = [e["id"] for e in events]
    records = ok(
        get(
            http,
            service,
            "/odds/multi",
            eventIds=",".join(map(str, ids[:10])),
            bookmakers=",".join(books[:30]),
        )
    )
    assert [r["id"] for r in records] == ids[:10]
    for record in records:
        check_record(record, books[:30])
    error(
        get(http, service, "/odds/multi", eventIds=",".join(map(str, ids)), bookmakers="Bet365"),
        400,
        "eventIds",
        "10",
    )
    error(
        get(http, service, "/odds/multi", eventIds=f"{ids[0]},x", bookmakers="Bet365"),
        400,
        "eventIds",
    )
    error(
        get(http, service, "/odds/multi", eventIds=f"{ids[0]},99999999999", bookmakers="Bet365"),
        404,
        "99999999999",
    )
    error(
        get(http, service, "/odds/multi", eventIds=str(ids[0]), bookmakers=",".join(books[:31])),
        400,
        "bookmakers",
        "30",
    )


def test_odds_updated_since(http: httpx.Client, service: Service) -> None:
    since = time.time() - 60  # speed 1: service time follows the wall clock
    # A service that has just started knows only the changes since then: wait for Bet365's
    # next football price change (how soon it comes depends on the simulated time of day).
    deadline = time.monotonic() + 30.0
    while True:
        records = ok(
            get(
                http,
                service,
                "/odds/updated",
                since=since,
                bookmaker="Bet365",
                sport="football",
                markets=MAIN,
            )
        )
        if records or time.monotonic() > deadline:
            break
        time.sleep(0.25)
    assert records, "Bet365 changed some football prices in 30 s"
    for record in records:
        assert record["sport"]["slug"] == "football"
        assert set(record["bookmakers"]) <= {"Bet365"}
    by_name = ok(
        get(
            http,
            service,
            "/odds/updated",
            since=since,
            bookmaker="Bet365",
            sport="FOOTBALL",
            markets=MAIN,
        )
    )
    assert {r["id"] for r in by_name} >= {r["id"] for r in records}
    error(
        get(
            http,
            service,
            "/odds/updated",
            since=time.time() - 200,
            bookmaker="Bet365",
            sport="football",
            markets=MAIN,
        ),
        400,
        "since",
        "90",
    )
    error(
        get(
            http,
            service,
            "/odds/updated",
            since=time.time() + 3600,
            bookmaker="Bet365",
            sport="football",
            markets=MAIN,
        ),
        400,
        "since",
        "future",
    )
    error(
        get(
            http, service, "/odds/updated", since="yesterday", bookmaker="Bet365", sport="football"
        ),
        400,
        "since",
        "number",
    )
    for record in records:
        assert {m["name"] for m in record["bookmakers"]["Bet365"]} <= {"ML", "Spread", "Totals"}
    for missing in ("since", "bookmaker", "sport", "markets"):
        params = {"since": since, "bookmaker": "Bet365", "sport": "football", "markets": MAIN}
        del params[missing]
        error(get(http, service, "/odds/updated", **params), 400, missing, "required")
    base = {"since": since, "bookmaker": "Bet365", "sport": "football"}
    many = ",".join(f"Market {n}" for n in range(21))
    error(get(http, service, "/odds/updated", **base, markets=many), 400, "markets", "20")
    error(get(http, service, "/odds/updated", **base, markets="Match Winner"), 400, "markets")


def test_movements(http: httpx.Client, service: Service, quoted: dict) -> None:
    record = ok(get(http, service, "/odds", eventId=quoted["id"], bookmakers="Bet365,Pinnacle"))
    bookie = next(iter(record["bookmakers"]))
    history = ok(
        get(http, service, "/odds/movements", eventId=quoted["id"], bookmaker=bookie, market="ML")
    )
    assert history["eventid"] == str(quoted["id"])
    assert history["bookmaker"] == bookie
    opening = history["opening"]
    assert isinstance(opening["timestamp"], int)
    assert all(isinstance(v, float | int) for k, v in opening.items() if k in SIDES)
    stamps = [tick["timestamp"] for tick in history["movements"]]
    assert stamps == sorted(stamps)
    assert all(stamp >= opening["timestamp"] for stamp in stamps)
    totals = next(m for m in record["bookmakers"][bookie] if m["name"] == "Totals")
    line = totals["odds"][0]["hdp"]
    total_history = ok(
        get(
            http,
            service,
            "/odds/movements",
            eventId=quoted["id"],
            bookmaker=bookie,
            market="Totals",
            marketLine=line,
        )
    )
    assert total_history["opening"]["hdp"] == line
    assert {"over", "under"} <= set(total_history["opening"])
    error(
        get(
            http,
            service,
            "/odds/movements",
            eventId=quoted["id"],
            bookmaker=bookie,
            market="No Such Market",
        ),
        404,
        "market",
    )
    error(
        get(
            http,
            service,
            "/odds/movements",
            eventId=quoted["id"],
            bookmaker=bookie,
            market="Totals",
            marketLine="abc",
        ),
        400,
        "marketLine",
    )
    error(
        get(http, service, "/odds/movements", eventId=quoted["id"], market="ML"),
        400,
        "bookmaker",
        "required",
    )


def test_historical_odds_are_closing_prices(
    http: httpx.Client, service: Service, books: list[str]
) -> None:
    leagues = ok(get(http, service, "/leagues", sport="football"))
    now = parse_time(ok(get(http, service, "/events", sport="football", limit=1))[0]["date"])
    span = {"from": rfc3339(now - timedelta(days=20)), "to": rfc3339(now)}
    settled = []
    for league in leagues:
        settled += [
            e
            for e in ok(
                get(
                    http,
                    service,
                    "/historical/events",
                    sport="football",
                    league=league["slug"],
                    **span,
                )
            )
            if e["status"] == "settled"
        ]
        if settled:
            break
    assert settled
    event = settled[0]
    record = ok(
        get(http, service, "/historical/odds", eventId=event["id"], bookmakers=",".join(books[:30]))
    )
    check_record(record, books[:30])
    assert record["status"] == "settled" and record["bookmakers"]
    assert record["scores"] == event["scores"]
    error(
        get(
            http, service, "/historical/odds", eventId=event["id"], bookmakers=",".join(books[:31])
        ),
        400,
        "bookmakers",
        "30",
    )
    error(get(http, service, "/historical/odds", bookmakers="Bet365"), 400, "eventId")
    pending = ok(get(http, service, "/events", sport="football", status="pending", limit=1))[0]
    error(
        get(http, service, "/historical/odds", eventId=pending["id"], bookmakers="Bet365"),
        404,
        "historical",
    )


def test_a_finished_event_is_no_longer_quoted(
    http: httpx.Client, service: Service, books: list[str]
) -> None:
    """Issue 31: GET /odds (and /odds/multi) of a settled event keeps its header (status, final
    scores) with no quotes; its closing prices are historical (docs/trading.md, "Wire")."""
    now = parse_time(ok(get(http, service, "/events", sport="football", limit=1))[0]["date"])
    span = {"from": rfc3339(now - timedelta(days=3)), "to": rfc3339(now)}
    settled: list[dict] = []
    for league in ok(get(http, service, "/leagues", sport="football")):
        found = ok(
            get(
                http, service, "/historical/events", sport="football", league=league["slug"], **span
            )
        )
        settled += [e for e in found if e["status"] == "settled"]
        if settled:
            break
    assert settled
    event = settled[0]
    some = ",".join(books[:30])
    record = ok(get(http, service, "/odds", eventId=event["id"], bookmakers=some))
    assert record["status"] == "settled" and record["scores"] == event["scores"]
    assert record["bookmakers"] == {} and record["urls"] == {}
    [multi] = ok(get(http, service, "/odds/multi", eventIds=str(event["id"]), bookmakers=some))
    assert multi["bookmakers"] == {}
    closing = ok(get(http, service, "/historical/odds", eventId=event["id"], bookmakers=some))
    assert closing["bookmakers"]  # the closing prices are still there, as history
