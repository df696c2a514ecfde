"""Catalog routes: sports, bookmakers, leagues, participants and their crests."""

from __future__ import annotations

from collections import Counter
from typing import Any

from starlette.responses import Response

from oddstui.service.errors import NotFound
from oddstui.service.params import INTEGER, STRING, Param
from oddstui.service.routes.lookup import ACTIVE_STATUSES, fold, sport_or_400
from oddstui.service.routes.spec import PNG, Call, Route

SPORT = Param("sport", STRING, "sport slug, as in GET /sports", required=True, max_length=60)
PARTICIPANT_ID = Param("id", INTEGER, "participant id", required=True, minimum=1, maximum=2**53)


def sports(call: Call) -> list[dict[str, Any]]:
    return [sport.to_wire() for sport in call.world.sports.values()]


def bookmakers(call: Call) -> list[dict[str, Any]]:
    return [book.to_wire() for book in call.world.bookmakers.values()]


def leagues(call: Call) -> list[dict[str, Any]]:
    world = call.world
    sport = sport_or_400(world, call.q["sport"])
    counts: Counter[str] = Counter(
        event.league.slug
        for event in world.events.values()
        if event.sport.slug == sport.slug and event.status in ACTIVE_STATUSES
    )
    return [
        {**league.to_wire(), "eventsCount": counts.get(league.slug, 0)}
        for league in world.leagues.values()
        if league.sport == sport.slug
    ]


def participants(call: Call) -> list[dict[str, Any]]:
    world = call.world
    sport = sport_or_400(world, call.q["sport"])
    search = call.q["search"]
    wanted = fold(search) if search else None
    found = [
        p
        for p in world.participants.values()
        if p.sport == sport.slug and (wanted is None or wanted in fold(p.name))
    ]
    found.sort(key=lambda p: (fold(p.name), p.id))
    return [p.to_wire() for p in found]


def participant(call: Call) -> dict[str, Any]:
    found = call.world.participants.get(call.path["id"])
    if found is None:
        raise NotFound(f"id: no participant with id {call.path['id']}")
    return found.to_wire()


def logo(call: Call) -> Response:
    pid = call.path["id"]
    if pid not in call.world.participants:
        raise NotFound(f"id: no participant with id {pid}")
    png = call.world.crest_png(pid)
    if not png:
        raise NotFound(f"id: participant {pid} has no crest")
    return Response(png, media_type=PNG, headers={"Cache-Control": "public, max-age=86400"})


ROUTES = (
    Route(
        "GET",
        "/sports",
        sports,
        "List the 34 sports",
        {"$ref": "#/components/schemas/Sports"},
        keyed=False,
        errors=(),
        tag="catalog",
    ),
    Route(
        "GET",
        "/bookmakers",
        bookmakers,
        "List every bookmaker and whether it is active",
        {"$ref": "#/components/schemas/Bookmakers"},
        keyed=False,
        errors=(),
        tag="catalog",
    ),
    Route(
        "GET",
        "/leagues",
        leagues,
        "Leagues of a sport, with their pending and live event counts",
        {"$ref": "#/components/schemas/Leagues"},
        params=(SPORT,),
        tag="catalog",
    ),
    Route(
        "GET",
        "/participants",
        participants,
        "Participants (teams, players) of a sport",
        {"$ref": "#/components/schemas/Participants"},
        params=(
            SPORT,
            Param("search", STRING, "case- and accent-insensitive name filter", max_length=100),
        ),
        tag="catalog",
    ),
    Route(
        "GET",
        "/participants/{id}",
        participant,
        "One participant",
        {"$ref": "#/components/schemas/Participant"},
        path_params=(PARTICIPANT_ID,),
        errors=(400, 401, 404, 429),
        tag="catalog",
    ),
    Route(
        "GET",
        "/participants/{id}/logo",
        logo,
        "A participant's crest as a PNG, cacheable 24 h",
        {"type": "string", "contentMediaType": "image/png"},
        path_params=(PARTICIPANT_ID,),
        media=PNG,
        errors=(400, 401, 404, 429),
        tag="catalog",
        response_headers=("Cache-Control",),
    ),
)
