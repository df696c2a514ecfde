"""Event routes: the list, one event, live events, search and the historical listing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from oddstui.server.errors import BadRequest
from oddstui.service.routes.call import Call, Handler
from oddstui.service.routes.lookup import (
    HISTORICAL_STATUSES,
    event_or_404,
    fold,
    league_or_400,
    sport_or_400,
)
from oddstui.service.world.model import LIVE, PENDING, STATUSES, Event

if TYPE_CHECKING:
    from oddstui.service.world import World

DAY = 86400.0
DEFAULT_AHEAD = 14 * DAY  # the list's default window: the next 14 days
DEFAULT_BEHIND = DAY  # ... starting a day back, so live and just-finished events are in it
MAX_HISTORICAL_SPAN = 31 * DAY
SEARCH_RESULTS = 10


def _wire(world: World, event: Event) -> dict[str, Any]:
    """The Event object, its clock read as of the answer (`World.clock_now`)."""
    wire = event.to_wire()
    if "clock" in wire:
        clock = world.clock_now(event)
        if clock is not None:
            wire["clock"] = clock.to_wire()
    return wire


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
    return [_wire(world, e) for e in found[q["skip"] : q["skip"] + q["limit"]]]


def event(call: Call) -> dict[str, Any]:
    return _wire(call.world, event_or_404(call.world, call.path["id"], "id"))


def live(call: Call) -> list[dict[str, Any]]:
    world = call.world
    slug = sport_or_400(world, call.q["sport"]).slug if call.q["sport"] else None
    found = [
        e
        for e in world.events.values()
        if e.status == LIVE and (slug is None or e.sport.slug == slug)
    ]
    found.sort(key=lambda e: (e.start, e.id))
    return [_wire(world, e) for e in found]


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
    return [_wire(call.world, e) for e in found[:SEARCH_RESULTS]]


def historical(call: Call) -> list[dict[str, Any]]:
    world, q = call.world, call.q
    sport = sport_or_400(world, q["sport"])
    league = league_or_400(world, q["league"], sport)
    start, end = q["from"], q["to"]
    if start > end:
        raise BadRequest("from: must not be after to")
    if end - start > MAX_HISTORICAL_SPAN:
        raise BadRequest("to: the span from 'from' to 'to' must be at most 31 days")
    world.lay_out_span(start, end)  # days still queued for the background are laid out now
    found = [
        e
        for e in world.events.values()
        if e.league.slug == league.slug
        and e.status in HISTORICAL_STATUSES
        and start <= e.start <= end
    ]
    found.sort(key=lambda e: (e.start, e.id))
    return [e.to_wire() for e in found]


HANDLERS: dict[str, Handler] = {
    "/events": events,
    "/events/live": live,
    "/events/search": search,
    "/events/{id}": event,
    "/historical/events": historical,
}
