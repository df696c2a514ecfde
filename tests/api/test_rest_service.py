"""ApiClient against the real built-in service over loopback (`oddstui serve --port 0`)."""

from __future__ import annotations

import asyncio
import logging
import socket
import time
import traceback
from datetime import timedelta

import pytest

from oddstui.api import (
    ApiClient,
    BadRequest,
    Forbidden,
    NotFound,
    RateLimited,
    ServiceUnavailable,
    Unauthorized,
)
from tests.api.conftest import FREE_KEY, PAID_KEY, TINY_KEY, Service
from tests.waiting import eventually_async

SPORTS = 34
SELECTION = ("Bet365", "Pinnacle", "Unibet", "William Hill", "SingBet")


@pytest.fixture
async def api(service: Service):
    async with ApiClient(service.base_url, PAID_KEY) as client:
        yield client
        # The service's data must always fit the models.
        assert client.malformed == 0


async def test_sports_and_bookmakers_need_no_key(service: Service):
    async with ApiClient(service.base_url, None) as anonymous:
        sports = await anonymous.sports()
        bookmakers = await anonymous.bookmakers()
    assert len(sports) == SPORTS
    assert {"football", "tennis", "esports", "cycling"} <= {sport.slug for sport in sports}
    assert len(bookmakers) >= 250
    assert sum(book.active for book in bookmakers) >= 250


async def test_budget_is_reported_on_keyed_requests(api: ApiClient):
    await api.leagues("football")
    first = api.budget
    await api.leagues("tennis")
    assert first.limit == 5000 and api.budget.limit == 5000
    assert first.remaining is not None and api.budget.remaining == first.remaining - 1
    assert api.budget.reset is not None


async def test_catalog_events_and_lookup(api: ApiClient):
    leagues = await api.leagues("football")
    assert leagues and all(league.slug for league in leagues)
    events = await api.events("football", limit=50)
    assert 0 < len(events) <= 50
    assert all(event.sport.slug == "football" for event in events)
    one = await api.event(events[0].id)
    assert (one.id, one.home, one.away) == (events[0].id, events[0].home, events[0].away)
    by_league = await api.events("football", league=events[0].league.slug)
    assert by_league and {event.league.slug for event in by_league} == {events[0].league.slug}
    found = await api.search_events(events[0].home[:12])
    assert any(event.id == events[0].id for event in found) or len(found) == 10


async def test_live_events_carry_scores_and_clocks(api: ApiClient):
    live = await api.live_events()
    assert live, "the world always has live events"
    assert all(event.status == "live" for event in live)
    assert len({event.sport.slug for event in live}) >= 10
    assert any(event.clock is not None for event in live)


async def test_account_selection(service: Service, api: ApiClient):
    assert (await api.selected_bookmakers()).bookmakers == SELECTION
    async with ApiClient(service.base_url, FREE_KEY) as free:
        chosen = await free.select_bookmakers(["Pinnacle", "Bet365"])
        assert set(chosen.bookmakers) == {"Pinnacle", "Bet365"} and chosen.count == 2
        assert set((await free.selected_bookmakers()).bookmakers) == {"Pinnacle", "Bet365"}
        with pytest.raises(BadRequest) as caught:
            await free.select_bookmakers(["Bet365", "No Such Book"])
    assert caught.value.invalid_bookmakers == ("No Such Book",)


async def test_odds_and_odds_multi_with_seq(api: ApiClient):
    # Pre-match events: every selected book quotes them (live ones carry an in-play subset).
    ids = [event.id for event in await api.events("football", status="pending", limit=10)]
    record = await api.odds(ids[0], SELECTION)
    assert record.event.id == ids[0]
    assert record.bookmakers and set(record.bookmakers) <= set(SELECTION)
    for markets in record.bookmakers.values():
        for market in markets:
            assert market.lines and all(
                price > 1 for line in market.lines for price in line.prices.values()
            )
    single, seq = await api.odds_with_seq(ids[0], SELECTION)
    assert single.event.id == ids[0] and seq >= 0
    records, later = await api.odds_multi_with_seq(ids, SELECTION)
    assert {r.event.id for r in records} <= set(ids) and len(records) >= 1
    assert later >= seq
    plain = await api.odds_multi(ids, SELECTION)
    assert {r.event.id for r in plain} == {r.event.id for r in records}


async def test_movements_and_odds_updated(api: ApiClient):
    upcoming = await api.events("football", status="pending", limit=1)
    record = await api.odds(upcoming[0].id, SELECTION)
    assert record.bookmakers
    # A market that has moved at least twice since it opened (pre-match lines drift).
    moved = []
    for book, markets in record.bookmakers.items():
        for market in markets:
            moves = await api.odds_movements(record.event.id, book, market.name)
            assert moves.event_id == record.event.id and moves.bookmaker == book
            assert moves.opening is not None
            if len(moves.ticks) >= 2:
                moved.append(moves)
        if moved:
            break
    assert moved, f"no market of event {record.event.id} has moved twice"
    for moves in moved:
        stamps = [tick.timestamp_ms for tick in moves.ticks]
        assert stamps == sorted(stamps)
    # `since` is in service time, which is wall-clock time at --speed 1.
    updated = await eventually_async(
        lambda: api.odds_updated(time.time() - 60, book, "football", ["ML", "Spread", "Totals"]),
        f"football updates at {book}",
    )
    assert all(r.event.sport.slug == "football" for r in updated)
    assert all(set(r.bookmakers) <= {book} for r in updated)
    names = {market.name for r in updated for market in r.bookmakers[book]}
    assert names and names <= {"ML", "Spread", "Totals"}
    with pytest.raises(BadRequest, match="since"):
        await api.odds_updated(time.time() - 3600, book, "football", "ML")
    # A caller that names no markets (written before they were required) asks for the main three.
    main = await api.odds_updated(time.time() - 60, book, "football")
    assert {m.name for r in main for m in r.bookmakers[book]} <= {"ML", "Spread", "Totals"}


async def _value_bets_somewhere(api: ApiClient) -> list:
    """Value bets exist at any time, but not for every bookmaker: look across a dozen books."""
    books = [book.name for book in await api.bookmakers()][:12]
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        for book in books:
            bets = await api.value_bets(book, include_event_details=True)
            if bets:
                assert all(bet.bookmaker == book for bet in bets)
                return bets
        await asyncio.sleep(0.5)
    return []


async def test_value_bets(api: ApiClient):
    bets = await _value_bets_somewhere(api)
    assert bets, "the world always has some value bets"
    for bet in bets:
        assert bet.event is not None and bet.event.home
        price = bet.bookmaker_prices[bet.bet_side]
        fair = bet.market_prices[bet.bet_side]
        # expectedValue is the bookmaker's price against the fair one, in percent, computed
        # before the fair price was rounded to 3 decimals for the wire: the EV read back from
        # the wire is off by up to what half a unit of that rounding moves it (0.1 at a 195 %
        # edge on a fair 1.43), plus the EV's own rounding.
        rounding = 100 * price * 0.0005 / (fair * (fair - 0.0005)) + 0.0005
        assert bet.expected_value == pytest.approx((price / fair - 1) * 100, abs=rounding + 1e-9)


async def test_arbitrage_bets_are_consistent(api: ApiClient):
    books = [book.name for book in await api.bookmakers()][:30]
    arbs = await eventually_async(
        lambda: api.arbitrage_bets(books, limit=500, include_event_details=True),
        "arbitrage among 30 books",
    )
    assert len(arbs) <= 500
    for arb in arbs:
        assert {leg.bookmaker for leg in arb.legs} <= set(books) and len(arb.legs) >= 2
        implied = sum(1 / leg.odds for leg in arb.legs)
        assert arb.implied_probability == pytest.approx(implied, abs=1e-3)
        assert arb.profit_margin == pytest.approx((1 / implied - 1) * 100, abs=0.01)
        assert sum(s.stake for s in arb.optimal_stakes) == pytest.approx(arb.total_stake, abs=0.01)
        returns = {round(s.potential_return, 2) for s in arb.optimal_stakes}
        assert len(returns) == 1
    few = await api.arbitrage_bets(books, limit=1)
    assert len(few) <= 1


async def test_dropping_odds_window_order(api: ApiClient):
    drops = await api.dropping_odds(sport="football", time_window="24h", limit=20, page=1)
    assert 0 < len(drops) <= 20
    assert all(d.drop_24h is not None and d.drop_24h > 0 for d in drops)
    windowed = [d.drop_24h for d in drops]
    assert windowed == sorted(windowed, reverse=True)
    # Prices move between requests, so page boundaries are not compared; each page is ordered.
    page_two = await eventually_async(
        lambda: api.dropping_odds(sport="football", time_window="24h", limit=20, page=2),
        "a second page of football drops",
    )
    assert len(page_two) <= 20
    assert [d.drop_24h for d in page_two] == sorted((d.drop_24h for d in page_two), reverse=True)


async def test_dropping_odds_is_forbidden_on_a_free_plan(service: Service):
    async with ApiClient(service.base_url, FREE_KEY) as free:
        with pytest.raises(Forbidden) as caught:
            await free.dropping_odds()
    assert caught.value.message


async def test_participants_and_logos(api: ApiClient):
    teams = await api.participants("football")
    assert teams
    team = await api.participant(teams[0].id)
    assert (team.id, team.name, team.sport) == (teams[0].id, teams[0].name, "football")
    logos = [await api.participant_logo(t.id) for t in teams[:40]]
    assert any(logo is not None and logo.startswith(b"\x89PNG") for logo in logos)
    assert any(logo is None for logo in logos), "some participants have no crest (404)"


async def test_historical_events_and_closing_odds(api: ApiClient):
    live = await api.live_events()
    now = max(event.date for event in live)
    leagues = await api.leagues("football")
    for league in leagues[:8]:
        history = await api.historical_events(
            "football", league.slug, now - timedelta(days=30), now
        )
        if history:
            break
    assert history, "45 days of settled football exist"
    assert {event.status for event in history} <= {"settled", "cancelled"}
    settled = next(event for event in history if event.status == "settled")
    record = await api.historical_odds(settled.id, SELECTION)
    assert record.event.id == settled.id


async def test_unknown_event_is_not_found(api: ApiClient):
    with pytest.raises(NotFound) as caught:
        await api.event(987654321987)
    assert caught.value.message


async def test_service_side_rule_is_a_bad_request_naming_the_parameter(api: ApiClient):
    with pytest.raises(BadRequest) as caught:
        await api.leagues("no-such-sport")
    assert "sport" in caught.value.message


WRONG_KEY = "sk_wrong_0123456789abcdef0123456789"


async def test_wrong_key_is_unauthorized_and_never_shown(service: Service, caplog):
    caplog.set_level(logging.DEBUG)
    async with ApiClient(service.base_url, WRONG_KEY) as api:
        assert WRONG_KEY not in repr(api)
        with pytest.raises(Unauthorized) as caught:
            await api.odds(1, ["Bet365"])
    error = caught.value
    assert error.message
    shown = "".join(traceback.format_exception(error)) + repr(error) + caplog.text
    assert WRONG_KEY not in shown
    assert "apiKey=***" in caplog.text  # httpx logged the request, redacted


async def test_rate_limit_gives_429_with_retry_after(service: Service):
    async with ApiClient(service.base_url, TINY_KEY) as api:
        with pytest.raises(RateLimited) as caught:
            for _ in range(5):
                await api.leagues("football")
        assert api.budget.remaining == 0 and api.budget.limit == 3
    assert caught.value.retry_after is not None and caught.value.retry_after > 0
    assert TINY_KEY not in "".join(traceback.format_exception(caught.value))


async def test_closed_port_is_service_unavailable_without_the_key():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    async with ApiClient(f"http://127.0.0.1:{port}/v3", WRONG_KEY, timeout=2) as api:
        with pytest.raises(ServiceUnavailable) as caught:
            await api.live_events()
    error = caught.value
    assert error.__cause__ is None and error.__context__ is None
    assert WRONG_KEY not in "".join(traceback.format_exception(error)) + repr(error)
