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

from collections.abc import Iterable
from datetime import datetime

import oddstui.api.validate as check
from oddstui.api.errors import MalformedRecord, RequestRejected
from oddstui.api.models import (
    ArbitrageBet,
    Bookmaker,
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
from oddstui.api.rest_session import Params, check_base_url, response_seq
from oddstui.api.rest_today import TodayCalls

__all__ = ["ApiClient", "check_base_url"]
MAX_UPDATED_MARKETS = 20
UPDATED_DEFAULT_MARKETS = ("ML", "Spread", "Totals")


class ApiClient(TodayCalls):
    """One client per service; use `async with ApiClient(base, key) as api:`.

    `transport` replaces the network (tests of the public service's behaviour use an
    `httpx.MockTransport`); `sleep` replaces `asyncio.sleep` for the 429 wait.
    """

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
        return record, response_seq(response, "/odds")

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
        return records, response_seq(response, "/odds/multi")

    async def historical_odds(
        self, event_id: int | str, bookmakers: Iterable[str] | str
    ) -> OddsRecord:
        params = self._odds_params(event_id, bookmakers)
        return await self._one("/historical/odds", parse_odds_record, params)

    async def odds_updated(
        self,
        since: int | float | datetime,
        bookmaker: str,
        sport: str,
        markets: Iterable[str] | str = UPDATED_DEFAULT_MARKETS,
    ) -> list[OddsRecord]:
        """GET /odds/updated: records changed since `since` (Unix seconds or a datetime), with
        only `markets` (at most 20 names, as `markets(sport)` lists them; the public service
        requires them since 15 Oct 2026, so a caller that names none asks for the main three).

        The public service accepts `since` at most 90 s old; that is not checked here because the
        built-in service runs on simulated time."""
        names = check.names(markets, "markets")
        if names.count(",") >= MAX_UPDATED_MARKETS:
            raise RequestRejected(f"markets: at most {MAX_UPDATED_MARKETS} names")
        params: Params = {
            "since": check.unix_seconds(since),
            "bookmaker": check.bookmaker(bookmaker),
            "sport": check.text(sport, "sport"),
            "markets": names,
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
        sort: str | None = None,
    ) -> list[DroppingOdds]:
        """GET /dropping-odds (paid plans only; a free plan gets `Forbidden`); `sort`: "drop"
        (the service's default), "recent" or "kickoff"."""
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
        if sort is not None:
            if sort not in ("drop", "recent", "kickoff"):
                raise RequestRejected(f"sort must be drop, recent or kickoff, got {sort!r}")
            params["sort"] = sort
        return await self._list("/dropping-odds", parse_dropping_odds, params)
