"""Catalog routes of the interface: sports, bookmakers, leagues, participants and their crests."""

from __future__ import annotations

from oddstui.server.params import INTEGER, STRING, Param
from oddstui.server.routes.spec import PNG, Route

SPORT = Param("sport", STRING, "sport slug, as in GET /sports", required=True, max_length=60)
PARTICIPANT_ID = Param("id", INTEGER, "participant id", required=True, minimum=1, maximum=2**53)
ROUTES = (
    Route(
        "GET",
        "/sports",
        "List the 34 sports",
        {"$ref": "#/components/schemas/Sports"},
        keyed=False,
        errors=(),
        tag="catalog",
    ),
    Route(
        "GET",
        "/bookmakers",
        "List every bookmaker and whether it is active",
        {"$ref": "#/components/schemas/Bookmakers"},
        keyed=False,
        errors=(),
        tag="catalog",
    ),
    Route(
        "GET",
        "/leagues",
        "Leagues of a sport, with their pending and live event counts",
        {"$ref": "#/components/schemas/Leagues"},
        params=(SPORT,),
        tag="catalog",
    ),
    Route(
        "GET",
        "/markets",
        "The exact market names a sport serves: how each reads, its period, prematch and live",
        {"$ref": "#/components/schemas/Markets"},
        params=(SPORT,),
        tag="catalog",
    ),
    Route(
        "GET",
        "/participants",
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
        "One participant",
        {"$ref": "#/components/schemas/Participant"},
        path_params=(PARTICIPANT_ID,),
        errors=(400, 401, 404, 429),
        tag="catalog",
    ),
    Route(
        "GET",
        "/participants/{id}/logo",
        "A participant's crest as a PNG, cacheable 24 h",
        {"type": "string", "contentMediaType": "image/png"},
        path_params=(PARTICIPANT_ID,),
        media=PNG,
        errors=(400, 401, 404, 429),
        tag="catalog",
        response_headers=("Cache-Control",),
    ),
)
