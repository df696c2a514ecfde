"""Odds routes: one event, several events, recently updated, movements, historical odds."""

from __future__ import annotations

from typing import Any

from oddstui.service.errors import BadRequest, NotFound
from oddstui.service.params import BOOLEAN, INTEGER, LIST, NUMBER, STRING, Param
from oddstui.service.routes.lookup import (
    HISTORICAL_STATUSES,
    bookmakers_or_400,
    event_or_404,
    sport_by_slug_or_name,
)
from oddstui.service.routes.spec import Call, Route

MAX_BOOKMAKERS = 30
MAX_EVENT_IDS = 10
UPDATED_MAX_AGE = 90.0  # seconds of simulated time /odds/updated looks back at most
SEQ_HEADER = "X-Service-Seq"

EVENT_ID = Param("eventId", INTEGER, "event id", required=True, minimum=1, maximum=2**53)
BOOKMAKERS = Param(
    "bookmakers",
    LIST,
    "comma-separated bookmaker names (case-sensitive), at most 30",
    required=True,
    max_items=MAX_BOOKMAKERS,
    max_length=80,
)
INCLUDE_SEQ = Param(
    "includeSeq",
    BOOLEAN,
    "when true, the X-Service-Seq header carries the feed sequence of this state",
    default=False,
)


def odds(call: Call) -> bytes:
    world = call.world
    books = bookmakers_or_400(world, call.q["bookmakers"])
    event = event_or_404(world, call.q["eventId"])
    body = call.svc.indexes.odds.record(event, books)
    _seq_header(call)
    return body


def odds_multi(call: Call) -> bytes:
    world = call.world
    books = bookmakers_or_400(world, call.q["bookmakers"])
    ids = call.q["eventIds"]
    missing = [i for i in ids if i not in world.events]
    if missing:
        raise NotFound(f"eventIds: no event with id {', '.join(map(str, missing))}")
    body = call.svc.indexes.odds.records([world.events[i] for i in ids], books)
    _seq_header(call)
    return body


def _seq_header(call: Call) -> None:
    # Handlers never await, so the body and this seq describe the same world state.
    if call.q["includeSeq"]:
        call.headers[SEQ_HEADER] = str(call.world.journal.seq)


def updated(call: Call) -> bytes:
    world, q = call.world, call.q
    (bookie,) = bookmakers_or_400(world, [q["bookmaker"]], "bookmaker")
    sport = sport_by_slug_or_name(world, q["sport"])
    now = world.now()
    since = q["since"]
    if since < now - UPDATED_MAX_AGE:
        raise BadRequest(
            f"since: must be at most {UPDATED_MAX_AGE:.0f} seconds old "
            f"(service time is {now:.0f}, Unix seconds)"
        )
    if since > now + 1.0:
        raise BadRequest(f"since: must not be in the future (service time is {now:.0f})")
    changed = call.svc.indexes.updated.changed_since(bookie, since)
    found = []
    for event_id in changed:
        event = world.events.get(event_id)
        if event is not None and event.sport.slug == sport.slug:
            found.append(event)
    found.sort(key=lambda e: (e.start, e.id))
    return call.svc.indexes.odds.records(found, [bookie])


def movements(call: Call) -> dict[str, Any]:
    world, q = call.world, call.q
    (bookie,) = bookmakers_or_400(world, [q["bookmaker"]], "bookmaker")
    event = event_or_404(world, q["eventId"])
    from oddstui.service.derived.movements import movement_history

    return movement_history(world, event, bookie, q["market"], q["marketLine"])


def historical_odds(call: Call) -> bytes:
    world = call.world
    books = bookmakers_or_400(world, call.q["bookmakers"])
    event = event_or_404(world, call.q["eventId"])
    if event.status not in HISTORICAL_STATUSES:
        raise NotFound(
            f"eventId: event {event.id} is {event.status}, not in the historical data; "
            "see GET /historical/events"
        )
    return call.svc.indexes.odds.record(event, books)


_RECORD = {"$ref": "#/components/schemas/OddsRecord"}
ROUTES = (
    Route(
        "GET",
        "/odds",
        odds,
        "One event's odds from the given bookmakers",
        _RECORD,
        params=(EVENT_ID, BOOKMAKERS, INCLUDE_SEQ),
        errors=(400, 401, 404, 429),
        tag="odds",
        response_headers=(SEQ_HEADER,),
    ),
    Route(
        "GET",
        "/odds/multi",
        odds_multi,
        "Odds of up to 10 events",
        {"type": "array", "items": _RECORD},
        params=(
            Param(
                "eventIds",
                LIST,
                "comma-separated event ids, at most 10",
                required=True,
                max_items=MAX_EVENT_IDS,
                items=INTEGER,
                max_length=20,
            ),
            BOOKMAKERS,
            INCLUDE_SEQ,
        ),
        errors=(400, 401, 404, 429),
        tag="odds",
        response_headers=(SEQ_HEADER,),
    ),
    Route(
        "GET",
        "/odds/updated",
        updated,
        "Odds records of one bookmaker that changed since a time at most 90 s ago",
        {"type": "array", "items": _RECORD},
        params=(
            Param("since", NUMBER, "Unix seconds (service time), at most 90 s ago", required=True),
            Param("bookmaker", STRING, "one bookmaker name", required=True, max_length=80),
            Param(
                "sport",
                STRING,
                "sport slug or display name, case-insensitive",
                required=True,
                max_length=60,
            ),
        ),
        tag="odds",
    ),
    Route(
        "GET",
        "/odds/movements",
        movements,
        "Price history of one market line at one bookmaker",
        {"$ref": "#/components/schemas/Movements"},
        params=(
            EVENT_ID,
            Param("bookmaker", STRING, "one bookmaker name", required=True, max_length=80),
            Param(
                "market",
                STRING,
                "market name, e.g. ML, Spread, Totals",
                required=True,
                max_length=80,
            ),
            Param(
                "marketLine",
                STRING,
                "the line (hdp) for markets with lines; for player props `label:hdp`",
                max_length=120,
            ),
        ),
        errors=(400, 401, 404, 429),
        tag="odds",
    ),
    Route(
        "GET",
        "/historical/odds",
        historical_odds,
        "Closing odds of a settled or cancelled event",
        _RECORD,
        params=(EVENT_ID, BOOKMAKERS),
        errors=(400, 401, 404, 429),
        tag="historical",
    ),
)
