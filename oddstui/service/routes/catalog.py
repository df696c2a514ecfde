"""Catalog routes: sports, bookmakers, leagues, participants and their crests."""

from __future__ import annotations

from collections import Counter
from typing import Any

from starlette.responses import Response

from oddstui.server.errors import NotFound
from oddstui.server.routes.spec import PNG
from oddstui.service.routes.call import Call, Handler
from oddstui.service.routes.lookup import ACTIVE_STATUSES, fold, sport_or_400


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


HANDLERS: dict[str, Handler] = {
    "/sports": sports,
    "/bookmakers": bookmakers,
    "/leagues": leagues,
    "/participants": participants,
    "/participants/{id}": participant,
    "/participants/{id}/logo": logo,
}
