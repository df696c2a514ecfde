"""The client refuses requests that break the interface's limits, before sending anything."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pytest

from oddstui.api import ApiClient, RequestRejected
from oddstui.api.rest import check_base_url

BOOKS_31 = [f"Book{i}" for i in range(31)]


def _refuse(request: httpx.Request) -> httpx.Response:
    raise AssertionError(f"nothing should be sent, got {request.url.path}")


@pytest.fixture
async def api():
    client = ApiClient("http://service.test/v3", "k", transport=httpx.MockTransport(_refuse))
    yield client
    await client.aclose()


@pytest.mark.parametrize(
    "call, rule",
    [
        (lambda api: api.odds(1, BOOKS_31), "at most 30"),
        (lambda api: api.odds(1, []), "at least one"),
        (lambda api: api.odds(1, "Bet365,,Pinnacle"), "empty name"),
        (lambda api: api.odds(0, ["Bet365"]), "positive integer"),
        (lambda api: api.odds("12a", ["Bet365"]), "positive integer"),
        (lambda api: api.odds(True, ["Bet365"]), "positive integer"),
        (lambda api: api.odds_with_seq(1, BOOKS_31), "at most 30"),
        (lambda api: api.historical_odds(1, BOOKS_31), "at most 30"),
        (lambda api: api.odds_multi(range(1, 12), ["Bet365"]), "at most 10"),
        (lambda api: api.odds_multi([], ["Bet365"]), "at least one id"),
        (lambda api: api.odds_multi_with_seq(range(1, 12), ["Bet365"]), "at most 10"),
        (lambda api: api.odds_multi([1, 2], BOOKS_31), "at most 30"),
        (lambda api: api.arbitrage_bets(["A", "B"], limit=501), "from 1 to 500"),
        (lambda api: api.arbitrage_bets(["A", "B"], limit=0), "from 1 to 500"),
        (lambda api: api.dropping_odds(limit=201), "from 1 to 200"),
        (lambda api: api.dropping_odds(page=0), "at least 1"),
        (lambda api: api.dropping_odds(time_window="1h"), "timeWindow"),
        (lambda api: api.dropping_odds(min_drop=-1), "minDrop"),
        (lambda api: api.dropping_odds(min_drop=float("nan")), "minDrop"),
        (lambda api: api.dropping_odds(league="epl"), "requires sport"),
        (
            lambda api: api.dropping_odds(sport="football", league="a", leagues=["b"]),
            "cannot be used together",
        ),
        (lambda api: api.value_bets("Bet365", league="epl"), "requires sport"),
        (lambda api: api.value_bets("Bet365,Pinnacle"), "one bookmaker"),
        (lambda api: api.value_bets(""), "non-empty"),
        (lambda api: api.search_events("ab"), "at least 3"),
        (lambda api: api.search_events("  ab  "), "at least 3"),
        (lambda api: api.events("football", limit=5001), "from 1 to 5000"),
        (lambda api: api.events("football", skip=-1), "at least 0"),
        (lambda api: api.events("football", to="next week"), "RFC 3339"),
        (lambda api: api.events(""), "sport"),
        (
            lambda api: api.historical_events(
                "football",
                "epl",
                datetime(2026, 1, 1, tzinfo=UTC),
                datetime(2026, 3, 1, tzinfo=UTC),
            ),
            "31 days",
        ),
        (
            lambda api: api.historical_events(
                "football", "epl", "2026-02-01T00:00:00Z", "2026-01-01T00:00:00Z"
            ),
            "before",
        ),
        (lambda api: api.odds_updated(float("inf"), "Bet365", "football", "ML"), "since"),
        (lambda api: api.odds_updated(1, "Bet365", "football", []), "markets"),
        (lambda api: api.odds_updated(1, "Bet365", "football", [f"M{n}" for n in range(21)]), "20"),
        (lambda api: api.odds_movements(1, "Bet365", ""), "market"),
        (lambda api: api.select_bookmakers([]), "at least one"),
        (lambda api: api.participant(-3), "positive integer"),
    ],
)
async def test_limits_are_checked_before_sending(api, call, rule):
    with pytest.raises(RequestRejected, match=rule):
        await call(api)
    assert api.requests_sent == 0


def test_request_rejected_is_a_value_error():
    assert issubclass(RequestRejected, ValueError)


async def test_requests_within_the_limits_are_sent_with_the_wire_parameters():
    seen: list[httpx.URL] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.url)
        return httpx.Response(200, json=[])

    async with ApiClient(
        "http://service.test/v3/", "k", transport=httpx.MockTransport(handler)
    ) as api:
        await api.odds_multi(["1", 2, 2, 3], [" Bet365", "Pinnacle", "Bet365"])
        await api.dropping_odds(
            sport="football", leagues=["a", "b"], time_window="24h", min_drop=5, limit=200, page=1
        )
        since = datetime(2026, 11, 21, 10, tzinfo=UTC)
        await api.events("football", start=since, to=since + timedelta(hours=1, milliseconds=5))
    multi, dropping, events = seen
    assert multi.path == "/v3/odds/multi"
    assert multi.params["eventIds"] == "1,2,3"
    assert multi.params["bookmakers"] == "Bet365,Pinnacle"
    assert dropping.params["leagues"] == "a,b" and dropping.params["timeWindow"] == "24h"
    assert dropping.params["limit"] == "200" and dropping.params["page"] == "1"
    assert events.params["from"] == "2026-11-21T10:00:00Z"
    assert events.params["to"] == "2026-11-21T11:00:00.005Z"


@pytest.mark.parametrize(
    "url",
    [
        "",
        "ftp://x/v3",
        "localhost:8765/v3",
        "http:///v3",
        "http://h:99999/v3",
        "http://h/v3?x=1",
        "http://h:8765",
        "http://h/v2",
        "http://h/v33",
    ],
)
def test_bad_base_urls_are_rejected(url):
    with pytest.raises(RequestRejected, match="base URL"):
        check_base_url(url)


def test_good_base_url_loses_its_trailing_slash():
    assert check_base_url("https://api.odds-api.io/v3/") == "https://api.odds-api.io/v3"
    assert check_base_url(" http://10.0.0.2:80/odds/v3") == "http://10.0.0.2:80/odds/v3"
