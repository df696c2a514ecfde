"""A replay answers what a recording can of settlement: `/settlements` and `/settlements/grade`
from the recorded status and scores, closing lines from the prices recorded at kickoff, and a
clear 404 for what it cannot (`/markets`). Served by the replay's real REST routes."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from oddstui.recording import FeedMessage, Snapshot
from oddstui.replay.rest import ReplayRest
from oddstui.replay.state import ReplayState
from oddstui.server.accounts import Account, Accounts

T0 = 1_790_000_000.0
FOOTBALL = {"name": "Football", "slug": "football"}
KEY, FREE = "k-replay-paid", "k-replay-free"


def match(event_id: int, status: str) -> dict[str, Any]:
    return {
        "id": event_id,
        "home": f"Home {event_id}",
        "away": f"Away {event_id}",
        "date": "2026-11-26T15:00:00.000Z",
        "sport": FOOTBALL,
        "league": {"name": "League", "slug": "league"},
        "status": status,
        "scores": {"home": 0, "away": 0, "periods": {}},
    }


def ml(home: str, draw: str, away: str) -> list[dict[str, Any]]:
    odds = [{"home": home, "draw": draw, "away": away}]
    return [{"name": "ML", "updatedAt": "2026-11-26T14:59:00.000Z", "odds": odds}]


@pytest.fixture()
def http() -> TestClient:
    state = ReplayState()
    records = (
        {**match(1, "pending"), "bookmakers": {"Bet365": ml("2.10", "3.40", "3.60")}},
        {**match(2, "pending"), "bookmakers": {"Bet365": ml("1.90", "3.50", "4.20")}},
    )
    events = tuple({k: v for k, v in r.items() if k != "bookmakers"} for r in records)
    state.install(Snapshot(T0, events, records))
    final = {"home": 2, "away": 1, "periods": {"p1": {"home": 1, "away": 1},
             "p2": {"home": 1, "away": 0}, "ft": {"home": 2, "away": 1}}}  # fmt: skip
    for seq, message in enumerate(
        [
            {"type": "status", "id": 1, "status": "live"},
            {"type": "updated", "id": 1, "bookie": "Bet365", "markets": ml("1.50", "4", "7")},
            {"type": "score", "id": 1, "scores": final},
            {"type": "status", "id": 1, "status": "settled", "scores": final},
        ],
        start=1,
    ):
        state.apply(FeedMessage(T0 + seq, seq if message["type"] == "updated" else None, message))
    accounts = Accounts([Account(KEY, plan="paid"), Account(FREE, plan="free")])
    rest = ReplayRest(state, accounts, ["Bet365"])
    return TestClient(Starlette(routes=rest.routes()), base_url="http://replay/")


def test_settlements_come_from_the_recorded_status_and_scores(http: TestClient) -> None:
    body = http.get("/v3/settlements", params={"apiKey": KEY, "eventIds": "1,2,3"}).json()
    assert body["notFound"] == [3]
    first, second = body["settlements"]
    assert (first["eventId"], first["status"], first["final"]) == (1, "settled", True)
    assert first["scores"]["home"] == 2 and first["scores"]["periods"]["p1"]["away"] == 1
    assert (second["eventId"], second["status"], second["final"]) == (2, "pending", False)
    free = http.get("/v3/settlements", params={"apiKey": FREE, "eventIds": "1"})
    assert free.status_code == 403 and "paid" in free.json()["error"]


def test_grades_in_the_order_sent_from_the_recorded_score(http: TestClient) -> None:
    selections = [
        {"ref": "a", "eventId": 1, "market": "ML", "side": "home"},
        {"ref": "b", "eventId": 1, "market": "Totals HT", "hdp": 2.25, "side": "under"},
        {"ref": "c", "eventId": 2, "market": "ML", "side": "home"},
        {"ref": "d", "eventId": 1, "market": "Corners Totals", "hdp": 9.5, "side": "over"},
    ]
    answer = http.post(
        "/v3/settlements/grade", params={"apiKey": KEY}, json={"selections": selections}
    )
    grades = answer.json()["grades"]
    assert [(g["ref"], g["result"]) for g in grades] == [
        ("a", "won"), ("b", "half_won"), ("c", "pending"), ("d", "ungradeable"),
    ]  # fmt: skip
    assert grades[0]["score"]["home"] == 2 and grades[3]["reason"]
    bad = http.post("/v3/settlements/grade", params={"apiKey": KEY}, json={"selections": [{}]})
    assert bad.status_code == 400 and "selections[0].eventId" in bad.json()["error"]


def test_closing_lines_are_the_prices_at_kickoff_and_markets_are_not_recorded(
    http: TestClient,
) -> None:
    params = {
        "apiKey": KEY,
        "sport": "football",
        "from": "2026-11-26T00:00:00Z",
        "to": "2026-11-27T00:00:00Z",
        "bookmakers": "Bet365",
    }
    (record,) = http.get("/v3/historical/closing-lines", params=params).json()
    assert record["id"] == 1 and record["scores"]["home"] == 2
    assert record["bookmakers"]["Bet365"][0]["odds"][0]["home"] == "2.10"  # not the live 1.50
    missing = http.get("/v3/markets", params={"apiKey": KEY, "sport": "football"})
    assert missing.status_code == 404 and "recording" in missing.json()["error"]
    cleared = http.put("/v3/bookmakers/selected/clear", params={"apiKey": KEY})
    assert cleared.json() == {"bookmakers": [], "count": 0}
    again = http.put("/v3/bookmakers/selected/clear", params={"apiKey": KEY})
    assert again.status_code == 400 and "12 hours" in again.json()["error"]
