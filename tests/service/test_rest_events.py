"""Event endpoints: the list and its window and limits, one event, live, search, historical."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import httpx

from tests.service.conftest import Service
from tests.service.helpers import check_scores, error, fold, get, ok, parse_time, rfc3339
from tests.waiting import eventually

EVENT_FIELDS = {
    "id",
    "home",
    "away",
    "homeId",
    "awayId",
    "date",
    "status",
    "bookmakerCount",
    "league",
    "sport",
    "scores",
}
FAR = {"from": "2000-01-01T00:00:00Z", "to": "2100-01-01T00:00:00Z"}


def check_event(event: dict) -> None:
    assert EVENT_FIELDS <= set(event) <= EVENT_FIELDS | {"clock"}
    assert isinstance(event["id"], int) and isinstance(event["homeId"], int)
    assert event["status"] in ("pending", "live", "settled", "cancelled")
    check_scores(event["scores"], event["sport"]["slug"], event["status"])
    parse_time(event["date"])
    if "clock" in event:
        assert event["status"] == "live"


def test_events_default_window_is_the_next_14_days(http: httpx.Client, service: Service) -> None:
    # A fresh service lays out the days beyond the next hours in the background: wait for them.
    deadline = time.monotonic() + 60
    while True:
        events = ok(get(http, service, "/events", sport="football"))
        assert events
        latest = max(parse_time(e["date"]) for e in events)
        if latest > datetime.now(UTC) + timedelta(days=10) or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    for event in events:
        check_event(event)
        assert event["sport"]["slug"] == "football"
    dates = [parse_time(e["date"]) for e in events]
    assert dates == sorted(dates)
    now = datetime.now(UTC)  # speed 1: service time follows the wall clock
    assert all(
        now - timedelta(days=1, minutes=1) <= d <= now + timedelta(days=14, minutes=1)
        for d in dates
    )
    assert max(dates) > now + timedelta(days=10), "pending events reach two weeks ahead"
    assert min(dates) < now, "live and recent events are in the window"
    soon = ok(get(http, service, "/events", sport="football", to=rfc3339(now + timedelta(days=3))))
    # the same events (scores and statuses may have moved on between the two calls)
    cutoff = now + timedelta(days=3)
    assert [e["id"] for e in soon] == [e["id"] for e in events if parse_time(e["date"]) <= cutoff]


def test_events_limit_skip_and_status(http: httpx.Client, service: Service) -> None:
    first = ok(get(http, service, "/events", sport="football", limit=5))
    assert len(first) == 5
    page = ok(get(http, service, "/events", sport="football", limit=3, skip=2))
    assert page == first[2:5]
    live = eventually(
        lambda: ok(get(http, service, "/events", sport="football", status="live")),
        "live football events",
    )
    assert all(e["status"] == "live" for e in live)


def test_events_window_from_to(http: httpx.Client, service: Service) -> None:
    events = ok(get(http, service, "/events", sport="football"))
    start = parse_time(events[len(events) // 2]["date"])
    window = ok(
        get(
            http,
            service,
            "/events",
            sport="football",
            **{"from": rfc3339(start), "to": rfc3339(start + timedelta(hours=6))},
        )
    )
    assert window
    assert all(start <= parse_time(e["date"]) <= start + timedelta(hours=6) for e in window)


def test_events_limits_and_bad_input(http: httpx.Client, service: Service) -> None:
    assert len(ok(get(http, service, "/events", sport="football", limit=5000, **FAR))) <= 5000
    error(get(http, service, "/events", sport="football", limit=5001), 400, "limit", "5000")
    error(get(http, service, "/events", sport="football", limit=0), 400, "limit")
    error(get(http, service, "/events", sport="football", limit="ten"), 400, "limit", "integer")
    error(get(http, service, "/events", sport="football", skip=-1), 400, "skip")
    error(get(http, service, "/events", sport="football", to="tomorrow"), 400, "to", "RFC 3339")
    error(get(http, service, "/events", sport="football", status="done"), 400, "status")
    error(get(http, service, "/events", sport="football", league="nba"), 400, "league")
    error(
        get(
            http,
            service,
            "/events",
            sport="football",
            **{"from": "2030-01-02T00:00:00Z", "to": "2030-01-01T00:00:00Z"},
        ),
        400,
        "from",
    )
    error(get(http, service, "/events"), 400, "sport", "required")


def test_events_cap_at_5000(http: httpx.Client, service: Service) -> None:
    counts = {}
    for sport in ("football", "tennis", "basketball"):
        counts[sport] = len(ok(get(http, service, "/events", sport=sport, **FAR)))
    assert max(counts.values()) <= 5000


def test_one_event_and_404(http: httpx.Client, service: Service) -> None:
    listed = ok(get(http, service, "/events", sport="football", limit=3))
    assert listed
    for event in listed:
        one = ok(get(http, service, f"/events/{event['id']}"))
        check_event(one)
        assert one["id"] == event["id"] and one["home"] == event["home"]
    error(get(http, service, "/events/987654321987"), 404, "987654321987")
    error(get(http, service, "/events/x1"), 400, "id", "integer")


def test_live_events_carry_scores_and_clock(http: httpx.Client, service: Service) -> None:
    live = ok(get(http, service, "/events/live"))
    assert len({e["sport"]["slug"] for e in live}) >= 10
    assert all(e["status"] == "live" for e in live)
    clocks = [e["clock"] for e in live if "clock" in e]
    assert clocks
    for clock in clocks:
        assert {
            "minute",
            "playedSeconds",
            "period",
            "running",
            "statusDetail",
            "injuryTime",
        } <= set(clock)
        if "serve" in clock:
            assert clock["serve"] in ("home", "away")
    football = eventually(
        lambda: ok(get(http, service, "/events/live", sport="football")), "live football"
    )
    assert all(e["sport"]["slug"] == "football" for e in football)
    error(get(http, service, "/events/live", sport="moon"), 400, "sport")


def test_search_needs_three_characters_and_gives_ten_at_most(
    http: httpx.Client, service: Service
) -> None:
    events = ok(get(http, service, "/events", sport="football", limit=1))
    name = events[0]["home"]
    found = ok(get(http, service, "/events/search", query=name))
    assert 1 <= len(found) <= 10
    assert any(e["id"] == events[0]["id"] for e in found) or len(found) == 10
    for event in found:  # every word of the query is in the teams or the league
        text = fold(event["home"] + " " + event["away"] + " " + event["league"]["name"])
        assert all(word in text for word in fold(name).split()), (name, event)
    many = ok(get(http, service, "/events/search", query="  a  a  a "))
    assert len(many) <= 10
    error(get(http, service, "/events/search", query="ab"), 400, "query", "3")
    error(get(http, service, "/events/search"), 400, "query", "required")
    assert ok(get(http, service, "/events/search", query="zzqqxxyy")) == []


def test_historical_events(http: httpx.Client, service: Service) -> None:
    leagues = ok(get(http, service, "/leagues", sport="football"))
    now = parse_time(ok(get(http, service, "/events", sport="football", limit=1))[0]["date"])
    start, end = now - timedelta(days=31), now
    found = []
    for league in leagues[:8]:
        found += ok(
            get(
                http,
                service,
                "/historical/events",
                sport="football",
                league=league["slug"],
                **{"from": rfc3339(start), "to": rfc3339(end)},
            )
        )
    assert found
    assert {e["status"] for e in found} <= {"settled", "cancelled"}
    assert "settled" in {e["status"] for e in found}
    for event in found:
        check_event(event)
        assert start <= parse_time(event["date"]) <= end


def test_historical_events_rules(http: httpx.Client, service: Service) -> None:
    league = ok(get(http, service, "/leagues", sport="football"))[0]["slug"]
    span = {"from": "2026-01-01T00:00:00Z", "to": "2026-02-01T00:00:01Z"}
    error(
        get(http, service, "/historical/events", sport="football", league=league, **span),
        400,
        "31 days",
    )
    ok_span = {"from": "2026-01-01T00:00:00Z", "to": "2026-02-01T00:00:00Z"}
    ok(get(http, service, "/historical/events", sport="football", league=league, **ok_span))
    for missing in ("sport", "league", "from", "to"):
        params = {"sport": "football", "league": league, **ok_span}
        del params[missing]
        error(get(http, service, "/historical/events", **params), 400, missing, "required")
    error(
        get(http, service, "/historical/events", sport="tennis", league=league, **ok_span),
        400,
        "league",
    )
