"""Odds routes: one event, several events, recently updated, movements, historical odds and
closing lines."""

from __future__ import annotations

from typing import Any

from oddstui.server.errors import BadRequest, NotFound
from oddstui.server.params import shown
from oddstui.server.routes.odds import SEQ_HEADER
from oddstui.service.routes.call import Call, Handler
from oddstui.service.routes.events import MAX_HISTORICAL_SPAN
from oddstui.service.routes.lookup import (
    HISTORICAL_STATUSES,
    bookmakers_or_400,
    event_or_404,
    league_or_400,
    sport_by_slug_or_name,
    sport_or_400,
)
from oddstui.service.routes.markets import market_entries

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


def updated(call: Call) -> list[dict[str, Any]]:
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
    wanted = market_names_or_400(sport.slug, q["markets"])
    changed = call.svc.indexes.updated.changed_since(bookie, since)
    found = []
    for event_id in changed:
        event = world.events.get(event_id)
        if event is not None and event.sport.slug == sport.slug:
            found.append(event)
    found.sort(key=lambda e: (e.start, e.id))
    records = (with_markets(world.odds_record(event, [bookie]), wanted) for event in found)
    return [record for record in records if any(record["bookmakers"].values())]


def market_names_or_400(sport: str, names: list[str], name: str = "markets") -> set[str]:
    """The sport's market names asked for (case-insensitive, as GET /markets lists them)."""
    known = {entry["name"].casefold(): entry["name"] for entry in market_entries(sport)}
    unknown = [n for n in names if n.casefold() not in known]
    if unknown:
        raise BadRequest(
            f"{name}: unknown market {shown(unknown[0])} for {sport}; "
            f"see GET /markets?sport={sport}"
        )
    return {known[n.casefold()] for n in names}


def with_markets(record: dict[str, Any], wanted: set[str]) -> dict[str, Any]:
    """The record with only the wanted markets at each bookmaker (a new dict: the world's wire
    lists are shared with its caches and never changed)."""
    books = {
        book: [market for market in quotes if market["name"] in wanted]
        for book, quotes in record["bookmakers"].items()
    }
    return {**record, "bookmakers": books}


CLOSING_DROPPED = ("homeId", "awayId", "bookmakerIds")


def closing_lines(call: Call) -> list[dict[str, Any]]:
    """Settled events of a sport (and leagues) kicking off in [from, to): the closing record of
    each, its final score, the asked markets (ML by default), earliest first."""
    world, q = call.world, call.q
    sport = sport_or_400(world, q["sport"])
    leagues = {league_or_400(world, slug, sport, "leagues").slug for slug in q["leagues"] or []}
    books = bookmakers_or_400(world, q["bookmakers"])
    start, end = q["from"], q["to"]
    if start > end:
        raise BadRequest("from: must not be after to")
    if end - start > MAX_HISTORICAL_SPAN:
        raise BadRequest("to: the span from 'from' to 'to' must be at most 31 days")
    wanted = market_names_or_400(sport.slug, q["markets"] or ["ML"])
    world.lay_out_span(start, end)
    found = sorted(
        (
            e
            for e in world.events.values()
            if e.sport.slug == sport.slug
            and e.status == "settled"
            and start <= e.start < end
            and (not leagues or e.league.slug in leagues)
        ),
        key=lambda e: (e.start, e.id),
    )[: q["limit"]]
    answer = []
    for event in found:
        record = with_markets(world.odds_record(event, books), wanted)
        for key in CLOSING_DROPPED:
            record.pop(key, None)
        answer.append(record)
    return answer


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
    "/historical/closing-lines": closing_lines,
}
