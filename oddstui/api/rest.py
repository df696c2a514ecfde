"""`ApiClient`: an async client for every REST endpoint of the v3 interface, on httpx.

- It checks the interface's limits before sending and raises `RequestRejected` instead.
- It keeps the `x-ratelimit-*` budget in `client.budget` and waits out a 429, 502, 503 or 504
  (a bounded number of times, honouring `Retry-After`, never longer than `max_retry_wait`).
- The API key never leaves it except in the request itself: errors, logs and reprs show
  `apiKey=***`, and no httpx exception (whose request holds the full URL) is ever chained.
- List endpoints skip items that do not fit the models, count them in `client.malformed` and log
  one warning per response; a single-record endpoint raises `MalformedRecord`.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from datetime import datetime
from typing import Any, TypeVar
from urllib.parse import urlsplit

import httpx

import oddstui.api.validate as check
from oddstui.api.budget import BudgetTracker, retry_after_seconds
from oddstui.api.errors import (
    BadRequest,
    Forbidden,
    MalformedRecord,
    NotFound,
    RateLimited,
    RequestRejected,
    ServerError,
    ServiceError,
    ServiceUnavailable,
    Unauthorized,
)
from oddstui.api.models import (
    ArbitrageBet,
    Bookmaker,
    Budget,
    DroppingOdds,
    Event,
    League,
    Movements,
    OddsRecord,
    Participant,
    SelectedBookmakers,
    Sport,
    ValueBet,
    parse_arbitrage_bet,
    parse_bookmaker,
    parse_dropping_odds,
    parse_event,
    parse_league,
    parse_movements,
    parse_odds_record,
    parse_participant,
    parse_selected_bookmakers,
    parse_sport,
    parse_value_bet,
)
from oddstui.api.redact import install_log_redaction, plain, redact

log = logging.getLogger("oddstui.api")
install_log_redaction()

T = TypeVar("T")
SEQ_HEADERS = ("X-Service-Seq", "X-OddsAPI-Seq")
# Statuses worth a bounded retry: rate limited, and a gateway or service briefly unavailable.
RETRIED = frozenset({429, 502, 503, 504})
_ERRORS: dict[int, type[ServiceError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
}
Params = dict[str, str | int | float]


def check_base_url(base_url: str) -> str:
    """The base URL without a trailing slash; `RequestRejected` unless it is http(s)://host/.../v3."""
    if not isinstance(base_url, str):
        raise RequestRejected("base URL must be a string")
    try:
        parts = urlsplit(base_url.strip())
        parts.port  # noqa: B018  (reading it raises ValueError for a bad port)
    except ValueError:
        raise RequestRejected("base URL is not a valid URL") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise RequestRejected("base URL must start with http:// or https:// and name a host")
    if parts.query or parts.fragment or parts.username or parts.password:
        raise RequestRejected("base URL must not carry a query, fragment or credentials")
    if not parts.path.rstrip("/").endswith("/v3"):
        raise RequestRejected("base URL must end in the version segment /v3")
    return base_url.strip().rstrip("/")


class ApiClient:
    """One client per service; use `async with ApiClient(base, key) as api:`.

    `transport` replaces the network (tests of the public service's behaviour use an
    `httpx.MockTransport`); `sleep` replaces `asyncio.sleep` for the 429 wait.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: float = 10.0,
        max_retries: int = 2,
        max_retry_wait: float = 30.0,
        on_budget: Callable[[Budget], None] | None = None,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        self.base_url = check_base_url(base_url)
        self._key = api_key or None
        self._tracker = BudgetTracker(on_budget)
        self._max_retries = max(0, max_retries)
        self._max_retry_wait = max_retry_wait
        self._sleep = sleep
        self.malformed = 0
        """Items of list responses skipped because they did not fit the models."""
        self._http = httpx.AsyncClient(
            base_url=self.base_url + "/",
            transport=transport,
            timeout=timeout,
            headers={"Accept": "application/json", "User-Agent": "oddstui"},
            follow_redirects=False,
        )

    def __repr__(self) -> str:
        shown = "set" if self._key else "unset"
        return f"ApiClient(base_url={self.base_url!r}, api_key=<{shown}>)"

    async def __aenter__(self) -> ApiClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    @property
    def budget(self) -> Budget:
        """The hourly request budget the service last reported."""
        return self._tracker.budget

    @property
    def requests_sent(self) -> int:
        return self._tracker.requests_sent

    # ------------------------------------------------------------------ transport

    async def _send(
        self,
        method: str,
        path: str,
        params: Params | None = None,
        *,
        keyed: bool = True,
        accept_404: bool = False,
    ) -> httpx.Response | None:
        query: Params = dict(params or {})
        if keyed:
            if not self._key:
                raise Unauthorized("no API key configured", path=path)
            query["apiKey"] = self._key
        attempt = 0
        while True:
            response = await self._exchange(method, path, query)
            self._tracker.observe(response.headers)
            status = response.status_code
            if status in RETRIED:
                wait = retry_after_seconds(response.headers.get("Retry-After"))
                if attempt < self._max_retries and (wait or 0.0) <= self._max_retry_wait:
                    attempt += 1
                    # No Retry-After: a short exponential wait (0.5, 1, 2 s...).
                    delay = wait if wait is not None else 0.5 * 2 ** (attempt - 1)
                    log.warning("%s on %s; retrying in %.1f s", status, path, delay)
                    await self._sleep(delay)
                    continue
                if status == 429:
                    raise RateLimited(self._error_text(response), retry_after=wait, path=path)
            if status == 404 and accept_404:
                return None
            if 200 <= status < 300:
                return response
            kind = _ERRORS.get(status)
            if kind is None:
                raise ServerError(self._error_text(response), status=status, path=path)
            error = kind(self._error_text(response), path=path)
            if isinstance(error, BadRequest):
                error.invalid_bookmakers = _invalid_bookmakers(response)
            raise error

    async def _exchange(self, method: str, path: str, query: Params) -> httpx.Response:
        """One HTTP exchange; transport failures become `ServiceUnavailable`, never chained."""
        failure: str | None = None
        try:
            self._tracker.requests_sent += 1
            response = await self._request(method, path, query)
        except httpx.TimeoutException:
            failure = "timed out"
        except (httpx.HTTPError, httpx.InvalidURL, OSError) as error:
            failure = plain(redact(str(error) or type(error).__name__, self._key))
        if failure is not None:
            # Raised outside the except block so the httpx error (its request holds the key)
            # is neither the __cause__ nor the __context__.
            raise ServiceUnavailable(f"{self.base_url}{path}: {failure}")
        log.debug("%s %s -> %s", method, path, response.status_code)
        return response

    async def _request(self, method: str, path: str, query: Params) -> httpx.Response:
        """Send and read one request. A GET whose kept-alive connection the server closed under
        it (a read or protocol error: servers close idle links after a few seconds, and the
        close can cross the request) is sent once more, on a new connection."""
        try:
            response = await self._http.request(method, path.lstrip("/"), params=query)
            await response.aread()
            return response
        except (httpx.ReadError, httpx.RemoteProtocolError):
            if method != "GET":
                raise
        log.debug("%s %s: the connection closed under it; sending it once more", method, path)
        response = await self._http.request(method, path.lstrip("/"), params=query)
        await response.aread()
        return response

    def _error_text(self, response: httpx.Response) -> str:
        text: Any = None
        try:
            body = response.json()
            if isinstance(body, Mapping):
                text = body.get("error") or body.get("message")
        except (ValueError, UnicodeDecodeError):
            pass
        if not isinstance(text, str) or not text.strip():
            text = response.reason_phrase or f"HTTP {response.status_code}"
        return plain(redact(text, self._key))

    def _json(self, response: httpx.Response, path: str) -> Any:
        try:
            return response.json()
        except (ValueError, UnicodeDecodeError):
            pass
        # Raised outside the handler: a JSONDecodeError keeps the whole body in `.doc`.
        raise MalformedRecord(f"{path}: response is not JSON")

    async def _get_json(
        self, path: str, params: Params | None = None, *, keyed: bool = True
    ) -> Any:
        response = await self._send("GET", path, params, keyed=keyed)
        assert response is not None
        return self._json(response, path)

    def _items(self, body: Any, parse: Callable[[Any], T], path: str) -> list[T]:
        if not isinstance(body, list):
            raise MalformedRecord(f"{path}: response is not a list")
        items: list[T] = []
        skipped = 0
        first_reason = ""
        for raw in body:
            try:
                items.append(parse(raw))
            except MalformedRecord as error:
                skipped += 1
                first_reason = first_reason or str(error)
        if skipped:
            self.malformed += skipped
            log.warning("%s: skipped %d malformed item(s), e.g. %s", path, skipped, first_reason)
        return items

    async def _list(
        self, path: str, parse: Callable[[Any], T], params: Params | None = None, keyed: bool = True
    ) -> list[T]:
        return self._items(await self._get_json(path, params, keyed=keyed), parse, path)

    async def _one(self, path: str, parse: Callable[[Any], T], params: Params | None = None) -> T:
        body = await self._get_json(path, params)
        try:
            return parse(body)
        except MalformedRecord as error:
            raise MalformedRecord(f"{path}: {error}") from None

    # ------------------------------------------------------------------ catalog

    async def sports(self) -> list[Sport]:
        """GET /sports (no key)."""
        return await self._list("/sports", parse_sport, keyed=False)

    async def bookmakers(self) -> list[Bookmaker]:
        """GET /bookmakers (no key)."""
        return await self._list("/bookmakers", parse_bookmaker, keyed=False)

    async def leagues(self, sport: str) -> list[League]:
        return await self._list("/leagues", parse_league, {"sport": check.slug(sport, "sport")})

    async def participants(self, sport: str, *, search: str | None = None) -> list[Participant]:
        params: Params = {"sport": check.slug(sport, "sport")}
        if search:
            params["search"] = check.text(search, "search")
        return await self._list("/participants", parse_participant, params)

    async def participant(self, participant_id: int) -> Participant:
        pid = check.event_id(participant_id, "participant id")
        return await self._one(f"/participants/{pid}", parse_participant)

    async def participant_logo(self, participant_id: int) -> bytes | None:
        """The crest as PNG bytes, or None when the participant has none (404)."""
        pid = check.event_id(participant_id, "participant id")
        response = await self._send("GET", f"/participants/{pid}/logo", accept_404=True)
        return None if response is None else response.content

    async def selected_bookmakers(self) -> SelectedBookmakers:
        return await self._one("/bookmakers/selected", parse_selected_bookmakers)

    async def select_bookmakers(self, bookmakers: Iterable[str] | str) -> SelectedBookmakers:
        """PUT /bookmakers/selected/select; unknown names give `BadRequest` with
        `invalid_bookmakers`."""
        names = check.bookmakers(bookmakers, limit=None)
        response = await self._send("PUT", "/bookmakers/selected/select", {"bookmakers": names})
        assert response is not None
        try:
            return parse_selected_bookmakers(self._json(response, "/bookmakers/selected/select"))
        except MalformedRecord as error:
            raise MalformedRecord(f"/bookmakers/selected/select: {error}") from None

    # ------------------------------------------------------------------ events

    async def events(
        self,
        sport: str,
        *,
        league: str | None = None,
        status: str | None = None,
        start: datetime | str | None = None,
        to: datetime | str | None = None,
        limit: int | None = None,
        skip: int | None = None,
    ) -> list[Event]:
        """GET /events: by default the next 14 days, at most 5000 per response."""
        params: Params = {"sport": check.slug(sport, "sport")}
        if league:
            params["league"] = check.slug(league, "league")
        if status:
            params["status"] = check.text(status, "status")
        if start is not None:
            params["from"] = check.timestamp(start, "from")
        if to is not None:
            params["to"] = check.timestamp(to, "to")
        if limit is not None:
            params["limit"] = check.bounded_int(limit, "limit", 1, 5000)
        if skip is not None:
            params["skip"] = check.bounded_int(skip, "skip", 0, None)
        return await self._list("/events", parse_event, params)

    async def event(self, event_id: int | str) -> Event:
        eid = check.event_id(event_id)
        return await self._one(f"/events/{eid}", parse_event)

    async def live_events(self, sport: str | None = None) -> list[Event]:
        params: Params = {}
        if sport:
            params["sport"] = check.slug(sport, "sport")
        return await self._list("/events/live", parse_event, params)

    async def search_events(self, query: str) -> list[Event]:
        return await self._list("/events/search", parse_event, {"query": check.search(query)})

    async def historical_events(
        self, sport: str, league: str, start: datetime | str, to: datetime | str
    ) -> list[Event]:
        """GET /historical/events: settled and cancelled events; the span is at most 31 days."""
        check.span(start, to, days=31)
        params: Params = {
            "sport": check.slug(sport, "sport"),
            "league": check.slug(league, "league"),
            "from": check.timestamp(start, "from"),
            "to": check.timestamp(to, "to"),
        }
        return await self._list("/historical/events", parse_event, params)

    # ------------------------------------------------------------------ odds

    async def odds(self, event_id: int | str, bookmakers: Iterable[str] | str) -> OddsRecord:
        return await self._one("/odds", parse_odds_record, self._odds_params(event_id, bookmakers))

    async def odds_with_seq(
        self, event_id: int | str, bookmakers: Iterable[str] | str
    ) -> tuple[OddsRecord, int]:
        """GET /odds with includeSeq=true: the record and the feed sequence it is current to."""
        params = self._odds_params(event_id, bookmakers)
        params["includeSeq"] = "true"
        response = await self._send("GET", "/odds", params)
        assert response is not None
        body = self._json(response, "/odds")
        try:
            record = parse_odds_record(body)
        except MalformedRecord as error:
            raise MalformedRecord(f"/odds: {error}") from None
        return record, _seq(response, "/odds")

    async def odds_multi(
        self, event_ids: Iterable[int | str], bookmakers: Iterable[str] | str
    ) -> list[OddsRecord]:
        params = self._multi_params(event_ids, bookmakers)
        return await self._list("/odds/multi", parse_odds_record, params)

    async def odds_multi_with_seq(
        self, event_ids: Iterable[int | str], bookmakers: Iterable[str] | str
    ) -> tuple[list[OddsRecord], int]:
        """GET /odds/multi with includeSeq=true: the records and their feed sequence."""
        params = self._multi_params(event_ids, bookmakers)
        params["includeSeq"] = "true"
        response = await self._send("GET", "/odds/multi", params)
        assert response is not None
        records = self._items(self._json(response, "/odds/multi"), parse_odds_record, "/odds/multi")
        return records, _seq(response, "/odds/multi")

    async def historical_odds(
        self, event_id: int | str, bookmakers: Iterable[str] | str
    ) -> OddsRecord:
        params = self._odds_params(event_id, bookmakers)
        return await self._one("/historical/odds", parse_odds_record, params)

    async def odds_updated(
        self, since: int | float | datetime, bookmaker: str, sport: str
    ) -> list[OddsRecord]:
        """GET /odds/updated: records changed since `since` (Unix seconds or a datetime).

        The public service accepts `since` at most 90 s old; that is not checked here because the
        built-in service runs on simulated time."""
        params: Params = {
            "since": check.unix_seconds(since),
            "bookmaker": check.bookmaker(bookmaker),
            "sport": check.text(sport, "sport"),
        }
        return await self._list("/odds/updated", parse_odds_record, params)

    async def odds_movements(
        self,
        event_id: int | str,
        bookmaker: str,
        market: str,
        *,
        market_line: float | str | None = None,
    ) -> Movements:
        params: Params = {
            "eventId": check.event_id(event_id),
            "bookmaker": check.bookmaker(bookmaker),
            "market": check.text(market, "market"),
        }
        if market_line is not None:
            params["marketLine"] = str(market_line)
        return await self._one("/odds/movements", parse_movements, params)

    def _odds_params(self, event_id: int | str, bookmakers: Iterable[str] | str) -> Params:
        return {"eventId": check.event_id(event_id), "bookmakers": check.bookmakers(bookmakers)}

    def _multi_params(
        self, event_ids: Iterable[int | str], bookmakers: Iterable[str] | str
    ) -> Params:
        return {"eventIds": check.event_ids(event_ids), "bookmakers": check.bookmakers(bookmakers)}

    # ------------------------------------------------------------------ derived feeds

    async def value_bets(
        self,
        bookmaker: str,
        *,
        sport: str | None = None,
        league: str | None = None,
        include_event_details: bool = False,
    ) -> list[ValueBet]:
        params: Params = {"bookmaker": check.bookmaker(bookmaker)}
        check.league_needs_sport(league, sport)
        if sport:
            params["sport"] = check.slug(sport, "sport")
        if league:
            params["league"] = check.slug(league, "league")
        if include_event_details:
            params["includeEventDetails"] = "true"
        return await self._list("/value-bets", parse_value_bet, params)

    async def arbitrage_bets(
        self,
        bookmakers: Iterable[str] | str,
        *,
        limit: int | None = None,
        include_event_details: bool = False,
    ) -> list[ArbitrageBet]:
        params: Params = {"bookmakers": check.bookmakers(bookmakers, limit=None)}
        if limit is not None:
            params["limit"] = check.bounded_int(limit, "limit", 1, 500)
        if include_event_details:
            params["includeEventDetails"] = "true"
        return await self._list("/arbitrage-bets", parse_arbitrage_bet, params)

    async def dropping_odds(
        self,
        *,
        sport: str | None = None,
        league: str | None = None,
        leagues: Iterable[str] | None = None,
        markets: Iterable[str] | None = None,
        time_window: str | None = None,
        min_drop: float | None = None,
        limit: int | None = None,
        page: int | None = None,
        include_event_details: bool = False,
    ) -> list[DroppingOdds]:
        """GET /dropping-odds (paid plans only; a free plan gets `Forbidden`)."""
        params: Params = {}
        check.league_needs_sport(league, sport)
        if league and leagues is not None:
            raise RequestRejected("league and leagues cannot be used together")
        if sport:
            params["sport"] = check.slug(sport, "sport")
        if league:
            params["league"] = check.slug(league, "league")
        if leagues is not None:
            params["leagues"] = check.names(leagues, "leagues")
        if markets is not None:
            params["markets"] = check.names(markets, "markets")
        if time_window is not None:
            params["timeWindow"] = check.time_window(time_window)
        if min_drop is not None:
            params["minDrop"] = check.min_drop(min_drop)
        if limit is not None:
            params["limit"] = check.bounded_int(limit, "limit", 1, 200)
        if page is not None:
            params["page"] = check.bounded_int(page, "page", 1, None)
        if include_event_details:
            params["includeEventDetails"] = "true"
        return await self._list("/dropping-odds", parse_dropping_odds, params)


def _seq(response: httpx.Response, path: str) -> int:
    for header in SEQ_HEADERS:
        value = response.headers.get(header)
        if value is not None:
            try:
                return int(value.strip())
            except ValueError:
                raise MalformedRecord(f"{path}: {header} is not an integer") from None
    raise MalformedRecord(f"{path}: the response carries no sequence header")


def _invalid_bookmakers(response: httpx.Response) -> tuple[str, ...]:
    try:
        body = json.loads(response.content)
    except (ValueError, UnicodeDecodeError):
        return ()
    names = body.get("invalidBookmakers") if isinstance(body, dict) else None
    if not isinstance(names, list):
        return ()
    return tuple(plain(name, 80) for name in names if isinstance(name, str))
