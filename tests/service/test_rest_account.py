"""Keys, plans, the hourly limit and its headers, and the bookmaker selection."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx

from tests.service.conftest import PAID_SELECTION, Service
from tests.service.helpers import error, get, ok, parse_time

KEYED = ["/leagues?sport=football", "/bookmakers/selected", "/events/live"]


def test_missing_or_unknown_key_is_401_without_rate_headers(
    http: httpx.Client, service: Service
) -> None:
    for path in KEYED:
        response = http.get(path)
        error(response, 401, "apiKey")
        assert "x-ratelimit-limit" not in response.headers
        error(http.get(path, params={"apiKey": "k-not-an-account"}), 401, "apiKey")


def test_error_never_echoes_the_key(http: httpx.Client, service: Service) -> None:
    response = http.get("/leagues", params={"apiKey": "k-secret-guess-123"})
    assert "k-secret-guess-123" not in response.text
    response = get(http, service, "/leagues", sport="no-such-sport")
    assert service.key not in response.text


def test_rate_headers_on_every_keyed_response(http: httpx.Client, service: Service) -> None:
    before = get(http, service, "/bookmakers/selected", key=service.keys.default)
    after = get(http, service, "/leagues", key=service.keys.default)  # 400: counted too
    assert after.status_code == 400
    for response in (before, after):
        assert response.headers["x-ratelimit-limit"] == "5000"
        reset = parse_time(response.headers["x-ratelimit-reset"])
        now = datetime.now(UTC)
        assert now - timedelta(seconds=5) < reset <= now + timedelta(hours=1, seconds=5)
    assert int(after.headers["x-ratelimit-remaining"]) == (
        int(before.headers["x-ratelimit-remaining"]) - 1
    )


def test_an_extra_rate_package_raises_the_limit(http: httpx.Client, service: Service) -> None:
    response = get(http, service, "/bookmakers/selected", key=service.keys.nofeed)
    assert response.headers["x-ratelimit-limit"] == "15000"  # 5,000 plus a +10K package


def test_sports_and_bookmakers_are_not_counted(http: httpx.Client, service: Service) -> None:
    first = get(http, service, "/bookmakers/selected", key=service.keys.nofeed)
    for _ in range(3):
        ok(http.get("/sports", params={"apiKey": service.keys.nofeed}))
        ok(http.get("/bookmakers"))
    second = get(http, service, "/bookmakers/selected", key=service.keys.nofeed)
    assert int(second.headers["x-ratelimit-remaining"]) == (
        int(first.headers["x-ratelimit-remaining"]) - 1
    )
    assert "x-ratelimit-limit" not in http.get("/sports").headers


def test_over_the_hourly_limit_is_429_with_retry_after(
    http: httpx.Client, service: Service
) -> None:
    tiny = service.keys.tiny
    remaining = [get(http, service, "/bookmakers/selected", key=tiny) for _ in range(3)]
    assert [r.status_code for r in remaining] == [200, 200, 200]
    assert [r.headers["x-ratelimit-remaining"] for r in remaining] == ["2", "1", "0"]
    refused = get(http, service, "/bookmakers/selected", key=tiny)
    error(refused, 429, "limit")
    retry = int(refused.headers["retry-after"])
    assert 3500 <= retry <= 3600
    assert refused.headers["x-ratelimit-remaining"] == "0"
    # other keys are not affected, and unkeyed endpoints still answer
    ok(get(http, service, "/bookmakers/selected"))
    ok(http.get("/sports"))


def test_free_plan_gets_403_on_paid_routes_only(http: httpx.Client, service: Service) -> None:
    error(get(http, service, "/dropping-odds", key=service.keys.free), 403, "paid")
    ok(get(http, service, "/dropping-odds", key=service.keys.paid))
    error(get(http, service, "/settlements", key=service.keys.free, eventIds="1"), 403, "paid")
    grade = http.post(
        "/settlements/grade",
        params={"apiKey": service.keys.free},
        json={"selections": [{"eventId": 1, "market": "ML", "side": "home"}]},
    )
    error(grade, 403, "paid")
    span = {"from": "2026-01-01T00:00:00Z", "to": "2026-01-02T00:00:00Z"}
    closing = get(
        http, service, "/historical/closing-lines", key=service.keys.free, sport="football",
        bookmakers="Bet365", **span,
    )  # fmt: skip
    error(closing, 403, "paid")
    ok(get(http, service, "/markets", key=service.keys.free, sport="football"))
    ok(get(http, service, "/leagues", key=service.keys.free, sport="tennis"))


def test_selection_from_the_accounts_file_and_default(http: httpx.Client, service: Service) -> None:
    paid = ok(get(http, service, "/bookmakers/selected"))
    assert paid == {"bookmakers": list(PAID_SELECTION), "count": len(PAID_SELECTION)}
    # A free plan gets two bookmakers of the default selection, and can never choose a third.
    free = ok(get(http, service, "/bookmakers/selected", key=service.keys.free))
    known = [b["name"] for b in ok(http.get("/bookmakers"))]
    assert free["count"] == len(free["bookmakers"]) == 2
    assert set(free["bookmakers"]) <= set(known)
    url = "/bookmakers/selected/select"
    three = ",".join(known[:3])
    error(
        http.put(url, params={"apiKey": service.keys.free, "bookmakers": three}), 403, "at most 2"
    )
    assert ok(get(http, service, "/bookmakers/selected", key=service.keys.free)) == free


def test_put_selection(http: httpx.Client, service: Service) -> None:
    key = service.keys.nofeed
    url = "/bookmakers/selected/select"
    chosen = ok(http.put(url, params={"apiKey": key, "bookmakers": "Pinnacle, Bet365,Pinnacle"}))
    assert chosen == {"bookmakers": ["Pinnacle", "Bet365"], "count": 2}
    assert ok(get(http, service, "/bookmakers/selected", key=key)) == chosen
    bad = http.put(url, params={"apiKey": key, "bookmakers": "Bet365,bet365,Nope Bet"})
    error(bad, 400, "bookmakers")
    assert bad.json()["invalidBookmakers"] == ["bet365", "Nope Bet"]
    assert ok(get(http, service, "/bookmakers/selected", key=key)) == chosen  # unchanged
    error(http.put(url, params={"apiKey": key}), 400, "bookmakers", "required")
    error(http.put(url, params={"bookmakers": "Bet365"}), 401)
    error(http.get(url, params={"apiKey": key}), 405)


def test_unknown_paths_and_methods_answer_json(http: httpx.Client, service: Service) -> None:
    for path in ("/nope", "/sports/", "/events/1/odds", "/v3/sports"):
        error(http.get(path, params={"apiKey": service.key}), 404, "not found")
    error(httpx.get(service.base_url.removesuffix("/v3") + "/", timeout=10), 404)
    error(http.post("/sports"), 405, "POST")
    error(http.delete("/events/1", params={"apiKey": service.key}), 405)
