"""The official Python SDK (`odds-api-io`, pinned in the test extra), unchanged, against the real
`oddstui serve` and the real `oddstui relay` in front of it: every one of its methods succeeds
and its answers have the public shapes."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.api.feed_service import FEED_KEY, FeedService
from tests.relay.relaying import DESK_KEYS, launch_relay
from tests.serving import terminate

odds_api = pytest.importorskip("odds_api")

pytestmark = pytest.mark.timeout(240)
EVENT_FIELDS = {"id", "home", "away", "date", "status", "sport", "league"}


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FeedService]:
    # --speed 1: service time is the wall clock, which `since` of /odds/updated is checked on.
    with FeedService(tmp_path_factory.mktemp("sdk"), "--seed", "5", "--speed", "1") as running:
        yield running


@pytest.fixture(scope="module")
def relay(service: FeedService, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    process: subprocess.Popen[str]
    process, base = launch_relay(service.base_url, FEED_KEY, Path(tmp_path_factory.mktemp("r")))
    try:
        yield base
    finally:
        terminate(process)


def sdk_methods() -> set[str]:
    client = odds_api.OddsAPIClient
    return {name for name in dir(client) if not name.startswith("_") and name != "close"}


def test_the_sdk_has_the_twenty_methods_this_test_calls() -> None:
    assert sdk_methods() == set(CALLED), sorted(sdk_methods() ^ set(CALLED))
    assert len(CALLED) == 20


@pytest.mark.parametrize("where", ["serve", "relay"])
def test_every_sdk_method_succeeds_with_public_shapes(
    where: str, service: FeedService, relay: str
) -> None:
    base, key = (service.base_url, FEED_KEY) if where == "serve" else (relay, DESK_KEYS[0])
    with odds_api.OddsAPIClient(api_key=key, base_url=base) as client:
        called = exercise(client)
    assert called == CALLED


CALLED = (
    "get_sports", "get_leagues", "get_bookmakers", "get_selected_bookmakers",
    "select_bookmakers", "get_events", "get_event_by_id", "get_live_events", "search_events",
    "get_event_odds", "get_odds_for_multiple_events", "get_odds_movement",
    "get_updated_odds_since_timestamp", "get_participants", "get_participant_by_id",
    "get_arbitrage_bets", "get_value_bets", "get_settlements", "grade_bets",
    "clear_selected_bookmakers",
)  # fmt: skip


def exercise(client) -> tuple[str, ...]:  # noqa: PLR0915 - one walk through the SDK, in order
    called: list[str] = []

    def call(name: str, *args, **kwargs):
        called.append(name)
        return getattr(client, name)(*args, **kwargs)

    sports = call("get_sports")
    assert {"name", "slug"} <= set(sports[0]) and any(s["slug"] == "football" for s in sports)
    leagues = call("get_leagues", "football")
    assert leagues and {"name", "slug"} <= set(leagues[0])
    books = call("get_bookmakers")
    assert books and {"name", "active"} <= set(books[0])
    selected = call("get_selected_bookmakers")
    assert selected["count"] == len(selected["bookmakers"]) >= 2
    two = selected["bookmakers"][:2]
    chosen = call("select_bookmakers", ",".join(two))
    assert chosen["bookmakers"] == two
    upcoming = call("get_events", sport="football", status="pending")
    assert upcoming and EVENT_FIELDS <= set(upcoming[0])
    event = call("get_event_by_id", upcoming[0]["id"])
    assert event["id"] == upcoming[0]["id"] and EVENT_FIELDS <= set(event)
    live = call("get_live_events", "football")
    assert isinstance(live, list) and all(e["status"] == "live" for e in live)
    found = call("search_events", upcoming[0]["home"][:6])
    assert isinstance(found, list) and found
    odds = call("get_event_odds", str(event["id"]), ",".join(two))
    assert odds["id"] == event["id"] and set(odds["bookmakers"]) <= set(two)
    quoted = next(iter(odds["bookmakers"]))
    multi = call("get_odds_for_multiple_events", f"{upcoming[0]['id']},{upcoming[1]['id']}", quoted)
    assert len(multi) == 2 and all("bookmakers" in record for record in multi)
    moves = call("get_odds_movement", str(event["id"]), quoted, "ML")
    assert {"opening", "movements"} <= set(moves)
    updated = call(
        "get_updated_odds_since_timestamp", int(time.time()) - 60, quoted, "football", "ML,Totals"
    )
    assert isinstance(updated, list)
    for record in updated:
        assert {m["name"] for m in record["bookmakers"][quoted]} <= {"ML", "Totals"}
    teams = call("get_participants", "football")
    assert teams and {"id", "name"} <= set(teams[0])
    team = call("get_participant_by_id", teams[0]["id"])
    assert team["id"] == teams[0]["id"]
    arbs = call("get_arbitrage_bets", ",".join(selected["bookmakers"]), limit=5)
    assert isinstance(arbs, list) and len(arbs) <= 5
    value = call("get_value_bets", quoted, include_event_details=True)
    assert isinstance(value, list)
    finished = [e for e in call_quiet(client) if e["status"] == "settled"]
    assert finished, "the world has settled football events in the last day"
    ids = f"{finished[0]['id']},{upcoming[0]['id']},99999999999"
    settlements = call("get_settlements", ids)
    assert settlements["notFound"] == [99999999999]
    by_id = {entry["eventId"]: entry for entry in settlements["settlements"]}
    assert by_id[finished[0]["id"]]["status"] == "settled" and by_id[finished[0]["id"]]["final"]
    assert by_id[upcoming[0]["id"]]["status"] == "pending"
    grades = call(
        "grade_bets",
        [
            {"ref": "bet-1", "eventId": finished[0]["id"], "market": "ML", "side": "home"},
            {"ref": "bet-2", "eventId": upcoming[0]["id"], "market": "ML", "side": "away"},
            {"ref": 3, "eventId": finished[0]["id"], "market": "Corners Totals", "hdp": 9.5,
             "side": "over"},
        ],
    )["grades"]  # fmt: skip
    assert [g["ref"] for g in grades] == ["bet-1", "bet-2", 3]
    assert grades[0]["result"] in ("won", "lost") and grades[0]["final"] is True
    assert grades[1]["result"] == "pending"
    assert grades[2]["result"] == "ungradeable" and grades[2]["reason"]
    cleared = call("clear_selected_bookmakers")
    assert cleared["bookmakers"] == []
    call_restore(client, selected["bookmakers"])
    return tuple(called)


def call_quiet(client) -> list[dict]:
    """Football events of the last day (not one of the SDK's methods under test)."""
    since = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - 86400))
    return client.get_events(sport="football", status="settled", start=since)


def call_restore(client, names: list[str]) -> None:
    client.select_bookmakers(",".join(names))
