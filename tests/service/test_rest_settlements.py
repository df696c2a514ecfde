"""Today's routes of the interface on the built-in service: /settlements, /settlements/grade,
/markets, /historical/closing-lines and PUT /bookmakers/selected/clear, with their bad input."""

from __future__ import annotations

import time
from typing import Any

import httpx

from tests.service.conftest import Service
from tests.service.helpers import error, get, ok

GRADE = "/settlements/grade"


def grade(http: httpx.Client, service: Service, body: Any, **kwargs: Any) -> httpx.Response:
    return http.post(GRADE, params={"apiKey": service.key}, json=body, **kwargs)


def day_of(http: httpx.Client, service: Service, status: str) -> list[dict[str, Any]]:
    start = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - 86400))
    return ok(get(http, service, "/events", sport="football", status=status, **{"from": start}))


def test_settlements(http: httpx.Client, service: Service) -> None:
    settled, pending = day_of(http, service, "settled"), day_of(http, service, "pending")
    assert settled and pending
    ids = f"{settled[0]['id']},{pending[0]['id']},123456789012"
    body = ok(get(http, service, "/settlements", eventIds=ids))
    assert body["notFound"] == [123456789012]
    done, waiting = body["settlements"]
    assert done == {
        "eventId": settled[0]["id"],
        "status": "settled",
        "final": True,
        "scores": settled[0]["scores"],
    }
    assert (waiting["status"], waiting["final"], waiting["scores"]) == ("pending", False, None)
    many = ",".join(str(n) for n in range(1, 52))
    error(get(http, service, "/settlements", eventIds=many), 400, "eventIds", "50")
    error(get(http, service, "/settlements"), 400, "eventIds", "required")
    error(get(http, service, "/settlements", eventIds="1,x"), 400, "eventIds", "integer")


def test_grading_keeps_the_order_and_echoes_ref(http: httpx.Client, service: Service) -> None:
    (event, *_) = day_of(http, service, "settled")
    (waiting, *_) = day_of(http, service, "pending")
    home, away = event["scores"]["periods"]["ft"].values()
    outcome = "home" if home > away else "away" if away > home else "draw"
    selections = [
        {"ref": "one", "eventId": event["id"], "market": "ML", "side": outcome},
        {"ref": 2, "eventId": waiting["id"], "market": "ML", "side": "home"},
        {"eventId": 123456789012, "market": "ML", "side": "home"},
        {"ref": "four", "eventId": event["id"], "market": "Bookings Totals", "hdp": 4.5,
         "side": "over"},
        {"ref": "five", "eventId": str(event["id"]), "market": "Totals", "hdp": "0.5",
         "side": "under" if home + away else "over"},
    ]  # fmt: skip
    grades = ok(grade(http, service, {"selections": selections}))["grades"]
    assert [g.get("ref") for g in grades] == ["one", 2, None, "four", "five"]
    assert [g["result"] for g in grades] == ["won", "pending", "ungradeable", "ungradeable", "lost"]
    assert grades[0]["final"] and grades[0]["score"] == event["scores"]
    assert not grades[1]["final"] and "pending" in grades[1]["reason"]
    assert "no event" in grades[2]["reason"] and "Bookings Totals" in grades[3]["reason"]


def test_grading_rejects_bad_bodies(http: httpx.Client, service: Service) -> None:
    one = {"eventId": 1, "market": "ML", "side": "home"}
    error(grade(http, service, None), 400, "body")
    error(http.post(GRADE, params={"apiKey": service.key}, content=b"{nope"), 400, "JSON")
    error(grade(http, service, {"bets": [one]}), 400, "selections")
    error(grade(http, service, {"selections": []}), 400, "selections", "non-empty")
    error(grade(http, service, {"selections": [one] * 51}), 400, "selections", "50")
    error(grade(http, service, {"selections": [one, {**one, "market": ""}]}), 400, "[1].market")
    error(grade(http, service, {"selections": [{**one, "hdp": "x"}]}), 400, "[0].hdp")
    error(grade(http, service, {"selections": [{**one, "eventId": -4}]}), 400, "[0].eventId")
    error(grade(http, service, {"selections": [{**one, "side": "h\x1bme"}]}), 400, "[0].side")
    error(http.get(GRADE, params={"apiKey": service.key}), 405)


def test_markets_name_what_the_odds_quote(http: httpx.Client, service: Service) -> None:
    markets = ok(get(http, service, "/markets", sport="football"))
    by_name = {entry["name"]: entry for entry in markets}
    assert by_name["ML"] == {
        "name": "ML", "shape": "home/draw/away", "period": "match", "prematch": True, "live": True,
    }  # fmt: skip
    assert by_name["Totals HT"]["period"] == "p1"
    (event, *_) = day_of(http, service, "pending")
    record = ok(get(http, service, "/odds", eventId=event["id"], bookmakers="Bet365,Pinnacle"))
    quoted = {m["name"] for book in record["bookmakers"].values() for m in book}
    assert quoted and quoted <= set(by_name)
    assert ok(get(http, service, "/markets", sport="tennis"))[0]["shape"] == "home/away"
    error(get(http, service, "/markets", sport="curling-on-ice"), 400, "sport")
    error(get(http, service, "/markets"), 400, "sport", "required")


def test_closing_lines(http: httpx.Client, service: Service) -> None:
    now = time.time()
    span = {
        "from": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now - 86400)),
        "to": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now)),
    }
    lines = ok(
        get(http, service, "/historical/closing-lines", sport="football",
            bookmakers="Bet365,Pinnacle", markets="ML,Totals", limit=5, **span)
    )  # fmt: skip
    assert 1 <= len(lines) <= 5
    dates = [line["date"] for line in lines]
    assert dates == sorted(dates)
    for line in lines:
        assert line["status"] == "settled" and "ft" in line["scores"]["periods"]
        assert not {"homeId", "awayId", "bookmakerIds"} & set(line)
        names = {m["name"] for book in line["bookmakers"].values() for m in book}
        assert names and names <= {"ML", "Totals"}
    wide = {"from": "2026-01-01T00:00:00Z", "to": "2026-03-01T00:00:00Z"}
    base = {"sport": "football", "bookmakers": "Bet365"}
    error(get(http, service, "/historical/closing-lines", **base, **wide), 400, "31 days")
    backwards = {"from": span["to"], "to": span["from"]}
    error(get(http, service, "/historical/closing-lines", **base, **backwards), 400, "from")
    error(
        get(http, service, "/historical/closing-lines", **base, **span, markets="Winner"),
        400,
        "markets",
    )


def test_clearing_the_selection(http: httpx.Client, service: Service) -> None:
    key = service.keys.nofeed
    url = "/bookmakers/selected"
    ok(http.put(url + "/select", params={"apiKey": key, "bookmakers": "Bet365"}))
    cleared = ok(http.put(url + "/clear", params={"apiKey": key}))
    assert cleared == {"bookmakers": [], "count": 0}
    assert ok(get(http, service, url, key=key)) == cleared
    error(http.put(url + "/clear"), 401)
    # Once every 12 hours, as the public service allows; choosing again is not limited.
    error(http.put(url + "/clear", params={"apiKey": key}), 400, "12 hours")
    ok(http.put(url + "/select", params={"apiKey": key, "bookmakers": "Bet365"}))


def test_the_openapi_document_has_todays_routes(http: httpx.Client) -> None:
    paths = ok(http.get("/openapi.json"))["paths"]
    grading = paths["/v3/settlements/grade"]["post"]
    body = grading["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/GradeRequest"}
    assert "403" in grading["responses"] and "403" in paths["/v3/settlements"]["get"]["responses"]
    updated = {p["name"]: p for p in paths["/v3/odds/updated"]["get"]["parameters"]}
    assert updated["markets"]["required"] and updated["markets"]["schema"]["x-maxItems"] == 20
    assert {"/v3/markets", "/v3/historical/closing-lines", "/v3/bookmakers/selected/clear"} <= set(
        paths
    )
