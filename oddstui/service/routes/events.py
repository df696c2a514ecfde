"""Event routes: the list, one event, live events, search and the historical listing."""

from __future__ import annotations

from typing import Any

from oddstui.service.errors import BadRequest
from oddstui.service.params import DATETIME, INTEGER, LIST, STRING, Param
from oddstui.service.routes.lookup import (
    HISTORICAL_STATUSES,
    event_or_404,
    fold,
    league_or_400,
    sport_or_400,
)
from oddstui.service.routes.spec import Call, Route
from oddstui.service.world.model import LIVE, PENDING, STATUSES, Event

DAY = 86400.0
DEFAULT_AHEAD = 14 * DAY  # the list's default window: the next 14 days
DEFAULT_BEHIND = DAY  # ... starting a day back, so live and just-finished events are in it
MAX_EVENTS = 5000
MAX_HISTORICAL_SPAN = 31 * DAY
SEARCH_RESULTS = 10

EVENT_ID = Param("id", INTEGER, "event id", required=True, minimum=1, maximum=2**53)
EVENTS_PARAMS = (
    Param("sport", STRING, "sport slug", required=True, max_length=60),
    Param("league", STRING, "league slug of that sport", max_length=120),
    Param(
        "status", LIST, "comma-separated statuses: pending, live, settled, cancelled", max_items=4
    ),
    Param("from", DATETIME, "RFC 3339 start of the window (default: 24 hours ago)"),
    Param("to", DATETIME, "RFC 3339 end of the window (default: 14 days ahead)"),
    Param(
        "limit",
        INTEGER,
        "at most this many events",
        default=MAX_EVENTS,
        minimum=1,
        maximum=MAX_EVENTS,
    ),
    Param(
        "skip",
        INTEGER,
        "skip this many events first (paging)",
        default=0,
        minimum=0,
        maximum=10_000_000,
    ),
)


def events(call: Call) -> list[dict[str, Any]]:
    world, q = call.world, call.q
    sport = sport_or_400(world, q["sport"])
    league = league_or_400(world, q["league"], sport) if q["league"] else None
    statuses = set(q["status"] or STATUSES)
    bad = sorted(statuses - set(STATUSES))
    if bad:
        raise BadRequest(f"status: must be among {', '.join(STATUSES)}; got {bad[0]!r}")
    now = world.now()
    start = q["from"] if q["from"] is not None else now - DEFAULT_BEHIND
    end = q["to"] if q["to"] is not None else now + DEFAULT_AHEAD
    if start > end:
        raise BadRequest("from: must not be after to")
    found = [
        e
        for e in world.events.values()
        if e.sport.slug == sport.slug
        and (league is None or e.league.slug == league.slug)
        and e.status in statuses
        and start <= e.start <= end
    ]
    found.sort(key=lambda e: (e.start, e.id))
    return [e.to_wire() for e in found[q["skip"] : q["skip"] + q["limit"]]]


def event(call: Call) -> dict[str, Any]:
    return event_or_404(call.world, call.path["id"], "id").to_wire()


def live(call: Call) -> list[dict[str, Any]]:
    world = call.world
    slug = sport_or_400(world, call.q["sport"]).slug if call.q["sport"] else None
    found = [
        e
        for e in world.events.values()
        if e.status == LIVE and (slug is None or e.sport.slug == slug)
    ]
    found.sort(key=lambda e: (e.start, e.id))
    return [e.to_wire() for e in found]


def search(call: Call) -> list[dict[str, Any]]:
    words = fold(call.q["query"]).split()
    found: list[Event] = []
    for e in call.world.events.values():
        text = f"{fold(e.home.name)} {fold(e.away.name)} {fold(e.league.name)}"
        if all(word in text for word in words):
            found.append(e)
    # Live first, then the soonest upcoming, then the most recent past ones.
    rank = {LIVE: 0, PENDING: 1}
    found.sort(key=lambda e: (rank.get(e.status, 2), e.start if e.status in rank else -e.start))
    return [e.to_wire() for e in found[:SEARCH_RESULTS]]


def historical(call: Call) -> list[dict[str, Any]]:
    world, q = call.world, call.q
    sport = sport_or_400(world, q["sport"])
    league = league_or_400(world, q["league"], sport)
    start, end = q["from"], q["to"]
    if start > end:
        raise BadRequest("from: must not be after to")
    if end - start > MAX_HISTORICAL_SPAN:
        raise BadRequest("to: the span from 'from' to 'to' must be at most 31 days")
    found = [
        e
        for e in world.events.values()
        if e.league.slug == league.slug
        and e.status in HISTORICAL_STATUSES
        and start <= e.start <= end
    ]
    found.sort(key=lambda e: (e.start, e.id))
    return [e.to_wire() for e in found]


_EVENT_LIST = {"$ref": "#/components/schemas/Events"}
ROUTES = (
    Route(
        "GET",
        "/events",
        events,
        "Events of a sport in a window (default: 24 hours back to 14 days ahead), by date",
        _EVENT_LIST,
        params=EVENTS_PARAMS,
        tag="events",
    ),
    Route(
        "GET",
        "/events/live",
        live,
        "Live events with scores and clock",
        _EVENT_LIST,
        params=(Param("sport", STRING, "sport slug", max_length=60),),
        tag="events",
    ),
    Route(
        "GET",
        "/events/search",
        search,
        "Events whose teams or league match every word of the query (at most 10)",
        _EVENT_LIST,
        params=(
            Param(
                "query",
                STRING,
                "search text, at least 3 characters",
                required=True,
                min_length=3,
                max_length=100,
            ),
        ),
        tag="events",
    ),
    Route(
        "GET",
        "/events/{id}",
        event,
        "One event; live events carry a clock",
        {"$ref": "#/components/schemas/Event"},
        path_params=(EVENT_ID,),
        errors=(400, 401, 404, 429),
        tag="events",
    ),
    Route(
        "GET",
        "/historical/events",
        historical,
        "Settled and cancelled events of a league; all four parameters required, span <= 31 days",
        _EVENT_LIST,
        params=(
            Param("sport", STRING, "sport slug", required=True, max_length=60),
            Param("league", STRING, "league slug of that sport", required=True, max_length=120),
            Param("from", DATETIME, "RFC 3339 start", required=True),
            Param("to", DATETIME, "RFC 3339 end, at most 31 days after from", required=True),
        ),
        tag="historical",
    ),
)
