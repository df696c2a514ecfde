"""Odds routes: one event, several events, recently updated, movements, historical odds."""

from __future__ import annotations

from typing import Any

from oddstui.server.errors import BadRequest, NotFound
from oddstui.server.routes.odds import SEQ_HEADER
from oddstui.service.routes.call import Call, Handler
from oddstui.service.routes.lookup import (
    HISTORICAL_STATUSES,
    bookmakers_or_400,
    event_or_404,
    sport_by_slug_or_name,
)

UPDATED_MAX_AGE = 90.0  # seconds of simulated time /odds/updated looks back at most


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
    missing = [i for i in ids if world.event_laid_out(i) is None]
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
    return call.svc.indexes.odds.record(event, books, closing=True)


HANDLERS: dict[str, Handler] = {
    "/odds": odds,
    "/odds/multi": odds_multi,
    "/odds/updated": updated,
    "/odds/movements": movements,
    "/historical/odds": historical_odds,
}
