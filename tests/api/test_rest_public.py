"""Behaviours of the PUBLIC service that the built-in one does not show, against a test double.

The double (an `httpx.MockTransport`) answers the way the public service is known to: string ids,
`X-OddsAPI-Seq`, 429 with `Retry-After`, error bodies that echo the request. Everything the
built-in service can show is tested against it instead (test_rest_service.py).
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Callable

import httpx
import pytest

from oddstui.api import (
    ApiClient,
    BadRequest,
    Forbidden,
    MalformedRecord,
    NotFound,
    RateLimited,
    ServerError,
    ServiceUnavailable,
    Unauthorized,
)
from tests.api.test_models import RECORD

KEY = "sk_live_9f8e7d6c5b4a39281706f5e4d3c2b1a0"
BASE = "https://api.odds-api.io/v3"


def client(handler: Callable[[httpx.Request], httpx.Response], **options) -> ApiClient:
    return ApiClient(BASE, KEY, transport=httpx.MockTransport(handler), **options)


class Sleeps:
    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def assert_no_key(error: BaseException) -> None:
    shown = "".join(traceback.format_exception(error)) + str(error) + repr(error)
    assert KEY not in shown
    assert error.__cause__ is None
    assert error.__context__ is None or KEY not in "".join(
        traceback.format_exception(error.__context__)
    )


async def test_odds_with_public_seq_header_and_string_ids():
    def handler(request: httpx.Request) -> httpx.Response:
        assert request.url.params["apiKey"] == KEY
        assert request.url.params["includeSeq"] == "true"
        body = dict(RECORD, id=str(RECORD["id"]), homeId="60", awayId="44")
        return httpx.Response(200, json=body, headers={"X-OddsAPI-Seq": "104233"})

    async with client(handler) as api:
        record, seq = await api.odds_with_seq("72221272", ["Bet365"])
    assert seq == 104233
    assert record.event.id == 72221272 and record.event.home_id == 60


async def test_multi_with_public_seq_header():
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=[RECORD, RECORD], headers={"X-OddsAPI-Seq": "7"})

    async with client(handler) as api:
        records, seq = await api.odds_multi_with_seq([1, 2], ["Bet365"])
    assert seq == 7 and len(records) == 2


async def test_missing_or_bad_seq_header_is_malformed():
    headers: dict[str, str] = {}

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=RECORD, headers=headers)

    async with client(handler) as api:
        with pytest.raises(MalformedRecord, match="sequence header"):
            await api.odds_with_seq(1, ["Bet365"])
        headers["X-OddsAPI-Seq"] = "soon"
        with pytest.raises(MalformedRecord, match="not an integer"):
            await api.odds_with_seq(1, ["Bet365"])


async def test_429_waits_for_retry_after_then_succeeds():
    answers = iter(
        [
            httpx.Response(
                429, json={"error": "Rate limit exceeded"}, headers={"Retry-After": "2"}
            ),
            httpx.Response(
                429, json={"error": "Rate limit exceeded"}, headers={"Retry-After": "1"}
            ),
            httpx.Response(200, json=[{"name": "Football", "slug": "football"}]),
        ]
    )
    sleeps = Sleeps()
    async with client(lambda request: next(answers), sleep=sleeps) as api:
        sports = await api.sports()
    assert sleeps.waits == [2.0, 1.0]
    assert [sport.slug for sport in sports] == ["football"]


async def test_429_gives_up_after_the_bounded_retries():
    calls = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        return httpx.Response(429, json={"error": "slow down"}, headers={"Retry-After": "1"})

    sleeps = Sleeps()
    async with client(handler, sleep=sleeps, max_retries=2) as api:
        with pytest.raises(RateLimited, match="slow down") as caught:
            await api.leagues("football")
    assert len(calls) == 3 and sleeps.waits == [1.0, 1.0]
    assert caught.value.retry_after == 1.0
    assert_no_key(caught.value)


async def test_429_with_a_long_retry_after_is_not_waited_for():
    sleeps = Sleeps()

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(429, json={"error": "hourly limit"}, headers={"Retry-After": "1800"})

    async with client(handler, sleep=sleeps) as api:
        with pytest.raises(RateLimited) as caught:
            await api.leagues("football")
    assert sleeps.waits == []
    assert caught.value.retry_after == 1800.0


async def test_429_without_retry_after_backs_off_exponentially():
    answers = iter([httpx.Response(429), httpx.Response(429), httpx.Response(200, json=[])])
    sleeps = Sleeps()
    async with client(lambda request: next(answers), sleep=sleeps) as api:
        assert await api.bookmakers() == []
    assert sleeps.waits == [0.5, 1.0]


async def test_budget_is_read_from_every_response_and_reported():
    remaining = iter(range(4999, 0, -1))
    seen = []

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            200,
            json=[],
            headers={
                "x-ratelimit-limit": "5000",
                "x-ratelimit-remaining": str(next(remaining)),
                "x-ratelimit-reset": "2026-11-21T11:00:00.000Z",
            },
        )

    async with client(handler, on_budget=seen.append) as api:
        assert api.budget.remaining is None
        await api.leagues("football")
        await api.leagues("tennis")
        assert (api.budget.limit, api.budget.remaining) == (5000, 4998)
    assert [budget.remaining for budget in seen] == [4999, 4998]


@pytest.mark.parametrize(
    "status, kind",
    [
        (400, BadRequest),
        (401, Unauthorized),
        (403, Forbidden),
        (404, NotFound),
        (500, ServerError),
        (502, ServerError),
    ],
)
async def test_error_statuses_carry_the_service_text_without_the_key(status, kind):
    def handler(request: httpx.Request) -> httpx.Response:
        # A hostile or careless service echoes the URL (with the key) and sends escapes.
        text = f"bad request to {request.url} with key {KEY}\x1b[31m red"
        return httpx.Response(status, json={"error": text})

    async with client(handler, sleep=Sleeps()) as api:
        with pytest.raises(kind) as caught:
            await api.event(5)
    error = caught.value
    assert error.status == status
    assert "bad request to" in error.message and "apiKey=***" in error.message
    assert "\x1b" not in str(error)
    assert "/events/5" in str(error)
    assert_no_key(error)


async def test_error_without_json_body_uses_the_reason_phrase():
    async with client(lambda request: httpx.Response(403, text="<html>nope</html>")) as api:
        with pytest.raises(Forbidden, match="Forbidden"):
            await api.dropping_odds()


async def test_unknown_bookmakers_are_listed():
    def handler(request: httpx.Request) -> httpx.Response:
        assert request.method == "PUT"
        return httpx.Response(
            400, json={"error": "Invalid bookmakers", "invalidBookmakers": ["Nope", 3]}
        )

    async with client(handler) as api:
        with pytest.raises(BadRequest) as caught:
            await api.select_bookmakers(["Bet365", "Nope"])
    assert caught.value.invalid_bookmakers == ("Nope",)


@pytest.mark.parametrize(
    "failure",
    [
        httpx.ConnectError,
        httpx.ReadTimeout,
        httpx.ConnectTimeout,
        httpx.RemoteProtocolError,
        httpx.ReadError,
    ],
)
async def test_network_errors_become_service_unavailable_without_the_key(failure):
    def handler(request: httpx.Request) -> httpx.Response:
        raise failure(f"cannot reach {request.url}", request=request)

    async with client(handler) as api:
        with pytest.raises(ServiceUnavailable) as caught:
            await api.odds(1, ["Bet365"])
    assert_no_key(caught.value)
    assert caught.value.__context__ is None
    assert "/odds" in str(caught.value)


async def test_non_json_success_is_malformed_without_the_key():
    async with client(lambda request: httpx.Response(200, text=f"oops {KEY}")) as api:
        with pytest.raises(MalformedRecord, match="not JSON") as caught:
            await api.event(1)
    assert_no_key(caught.value)
    assert caught.value.__context__ is None


async def test_list_items_that_do_not_fit_are_skipped_counted_and_warned_once(caplog):
    good = {
        "id": 1,
        "home": "A",
        "away": "B",
        "date": "2026-11-21T10:00:00Z",
        "sport": {"name": "Football", "slug": "football"},
        "league": {"name": "L", "slug": "l"},
    }
    body = [good, {"id": "x"}, "junk", dict(good, id=2)]
    caplog.set_level(logging.WARNING, logger="oddstui.api")
    async with client(lambda request: httpx.Response(200, json=body)) as api:
        events = await api.live_events()
        assert api.malformed == 2
    assert [event.id for event in events] == [1, 2]
    warnings = [record for record in caplog.records if "malformed" in record.getMessage()]
    assert len(warnings) == 1 and "skipped 2" in warnings[0].getMessage()


async def test_single_record_that_does_not_fit_is_malformed():
    async with client(lambda request: httpx.Response(200, json={"id": 1})) as api:
        with pytest.raises(MalformedRecord, match="/events/1"):
            await api.event(1)


async def test_logo_bytes_and_404_as_none():
    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/7/logo"):
            return httpx.Response(200, content=b"\x89PNG...", headers={"content-type": "image/png"})
        return httpx.Response(404, json={"error": "No logo"})

    async with client(handler) as api:
        assert await api.participant_logo(7) == b"\x89PNG..."
        assert await api.participant_logo(8) is None


async def test_sports_and_bookmakers_are_sent_without_the_key():
    def handler(request: httpx.Request) -> httpx.Response:
        assert "apiKey" not in request.url.params
        return httpx.Response(200, json=[{"name": "Bet365", "active": True}])

    async with client(handler) as api:
        assert (await api.bookmakers())[0].name == "Bet365"


async def test_keyed_request_without_a_key_is_refused_locally():
    async with ApiClient(BASE, None, transport=httpx.MockTransport(lambda r: 1 / 0)) as api:
        with pytest.raises(Unauthorized, match="no API key"):
            await api.live_events()


async def test_no_key_in_repr_or_logs(caplog):
    caplog.set_level(logging.DEBUG)

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(429, json={"error": KEY}, headers={"Retry-After": "0"})

    async with client(handler, sleep=Sleeps()) as api:
        assert KEY not in repr(api) and "<set>" in repr(api)
        with pytest.raises(RateLimited) as caught:
            await api.live_events()
    assert_no_key(caught.value)
    assert KEY not in caplog.text


async def test_a_briefly_unavailable_service_is_retried_then_reported():
    answers = iter(
        [httpx.Response(503, headers={"Retry-After": "1"}), httpx.Response(200, json=[])]
    )
    sleeps = Sleeps()
    async with client(lambda request: next(answers), sleep=sleeps) as api:
        assert await api.live_events() == []
    assert sleeps.waits == [1.0]

    sleeps = Sleeps()
    gateway = {"error": "bad gateway"}
    async with client(lambda request: httpx.Response(502, json=gateway), sleep=sleeps) as api:
        with pytest.raises(ServerError, match="bad gateway") as caught:
            await api.live_events()
    assert caught.value.status == 502 and sleeps.waits == [0.5, 1.0]


@pytest.mark.parametrize("closed", [httpx.ReadError, httpx.RemoteProtocolError])
async def test_a_get_whose_kept_alive_link_closed_under_it_is_sent_once_more(closed):
    calls: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request.method)
        if len(calls) == 1:  # the server closed the idle link as the request went out
            raise closed("Server disconnected without sending a response.", request=request)
        return httpx.Response(200, json=[{"name": "Football", "slug": "football"}])

    async with client(handler) as api:
        sports = await api.sports()
    assert [sport.slug for sport in sports] == ["football"]
    assert calls == ["GET", "GET"]


async def test_a_get_is_sent_at_most_twice_and_a_put_once():
    calls: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request.method)
        raise httpx.ReadError("connection reset", request=request)

    async with client(handler) as api:
        with pytest.raises(ServiceUnavailable) as error:
            await api.sports()
        assert_no_key(error.value)
        assert calls == ["GET", "GET"]
        calls.clear()
        with pytest.raises(ServiceUnavailable):
            await api.select_bookmakers(["Bet365"])
        assert calls == ["PUT"]  # only a GET is sent again
