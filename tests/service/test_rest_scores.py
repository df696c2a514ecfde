"""Score rules of the seed, read through GET /events/{id}: overtime and penalties.

Settled matches of the last weeks (the historical data) include matches decided in overtime
and on penalties; at `--speed 600` live matches also reach their ends within the test.
"""

from __future__ import annotations

import time
from datetime import timedelta

import httpx
import pytest

from tests.service.conftest import Service
from tests.service.helpers import get, ok, parse_time, rfc3339

SERVICE_OPTIONS = {"speed": 600, "bookmakers": 40}
OT_SPORTS = ("ice-hockey", "basketball", "football", "handball", "american-football")


@pytest.fixture(scope="module")
def settled(http: httpx.Client, service: Service) -> list[dict]:
    """Settled matches of sports with overtime, each read again through /events/{id}."""
    now = parse_time(ok(get(http, service, "/events/live"))[0]["date"])
    found = []
    for sport in OT_SPORTS:
        for league in ok(get(http, service, "/leagues", sport=sport)):
            for back in (0, 31):
                span = {
                    "from": rfc3339(now - timedelta(days=back + 31)),
                    "to": rfc3339(now - timedelta(days=back)),
                }
                found += [
                    e
                    for e in ok(
                        get(
                            http,
                            service,
                            "/historical/events",
                            sport=sport,
                            league=league["slug"],
                            **span,
                        )
                    )
                    if e["status"] == "settled"
                ]
    # Read every extra-time match, and a sample of the others, again through /events/{id}.
    extra = [e for e in found if {"ot", "ap"} & set(e["scores"]["periods"])]
    sample = [e for e in found if e not in extra][:40]
    return [ok(get(http, service, f"/events/{e['id']}")) for e in extra + sample]


def pair(scores: dict, key: str) -> tuple[int, int]:
    period = scores["periods"][key]
    return period["home"], period["away"]


def test_settled_matches_have_ft(settled: list[dict]) -> None:
    assert len(settled) > 40
    for event in settled:
        periods = event["scores"]["periods"]
        assert "ft" in periods and "p1" in periods, event
        assert "clock" not in event


def test_overtime_decides_the_top_level_score(settled: list[dict]) -> None:
    overtime = [
        e for e in settled if "ot" in e["scores"]["periods"] and "ap" not in e["scores"]["periods"]
    ]
    assert overtime, "some matches of the last weeks went to overtime"
    for event in overtime:
        scores = event["scores"]
        assert (scores["home"], scores["away"]) == pair(scores, "ot")
        ft_home, ft_away = pair(scores, "ft")
        assert ft_home == ft_away, "overtime follows a level regulation result"


def test_penalties_keep_the_ft_score_and_record_the_shootout(settled: list[dict]) -> None:
    shootouts = [e for e in settled if "ap" in e["scores"]["periods"]]
    assert shootouts, "some matches of the last weeks were decided on penalties"
    for event in shootouts:
        scores = event["scores"]
        assert (scores["home"], scores["away"]) == pair(scores, "ft")
        assert scores["home"] == scores["away"]
        ap_home, ap_away = pair(scores, "ap")
        assert ap_home != ap_away


def test_regulation_results_equal_ft(settled: list[dict]) -> None:
    regular = [
        e
        for e in settled
        if "ot" not in e["scores"]["periods"] and "ap" not in e["scores"]["periods"]
    ]
    assert regular
    for event in regular:
        scores = event["scores"]
        assert (scores["home"], scores["away"]) == pair(scores, "ft")


def test_live_matches_end_with_the_rules_applied(http: httpx.Client, service: Service) -> None:
    """Watch live hockey and basketball at --speed 600 until some settle; check each one."""
    watched = {
        e["id"]
        for sport in ("ice-hockey", "basketball")
        for e in ok(get(http, service, "/events/live", sport=sport))
    }
    assert watched
    finished: list[dict] = []
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline and len(finished) < 3:
        time.sleep(1.0)
        for event_id in list(watched):
            event = ok(get(http, service, f"/events/{event_id}"))
            if event["status"] == "settled":
                watched.discard(event_id)
                finished.append(event)
    assert finished, "no live match ended within the wait"
    for event in finished:
        scores = event["scores"]
        periods = scores["periods"]
        assert "ft" in periods
        if "ap" in periods:
            assert (scores["home"], scores["away"]) == pair(scores, "ft")
        elif "ot" in periods:
            assert (scores["home"], scores["away"]) == pair(scores, "ot")
        else:
            assert (scores["home"], scores["away"]) == pair(scores, "ft")
