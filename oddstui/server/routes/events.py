"""Event routes of the interface: the list, one event, live events, search, past events."""

from __future__ import annotations

from oddstui.server.params import DATETIME, INTEGER, LIST, STRING, Param
from oddstui.server.routes.spec import Route

MAX_EVENTS = 5000
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

_EVENT_LIST = {"$ref": "#/components/schemas/Events"}
ROUTES = (
    Route(
        "GET",
        "/events",
        "Events of a sport in a window (default: 24 hours back to 14 days ahead), by date",
        _EVENT_LIST,
        params=EVENTS_PARAMS,
        tag="events",
    ),
    Route(
        "GET",
        "/events/live",
        "Live events with scores and clock",
        _EVENT_LIST,
        params=(Param("sport", STRING, "sport slug", max_length=60),),
        tag="events",
    ),
    Route(
        "GET",
        "/events/search",
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
        "One event; live events carry a clock",
        {"$ref": "#/components/schemas/Event"},
        path_params=(EVENT_ID,),
        errors=(400, 401, 404, 429),
        tag="events",
    ),
    Route(
        "GET",
        "/historical/events",
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
