"""Odds routes of the interface: one or several events, updated, movements, historical odds."""

from __future__ import annotations

from oddstui.server.params import BOOLEAN, DATETIME, INTEGER, LIST, NUMBER, STRING, Param
from oddstui.server.routes.spec import Route

MAX_BOOKMAKERS = 30
MAX_EVENT_IDS = 10
MAX_UPDATED_MARKETS = 20
CLOSING_DEFAULT_LIMIT, CLOSING_MAX_LIMIT = 100, 500
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

_RECORD = {"$ref": "#/components/schemas/OddsRecord"}
ROUTES = (
    Route(
        "GET",
        "/odds",
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
            Param(
                "markets",
                LIST,
                "comma-separated market names as GET /markets lists them, at most 20",
                required=True,
                max_items=MAX_UPDATED_MARKETS,
                max_length=80,
            ),
        ),
        tag="odds",
    ),
    Route(
        "GET",
        "/odds/movements",
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
        "Closing odds of a settled or cancelled event",
        _RECORD,
        params=(EVENT_ID, BOOKMAKERS),
        errors=(400, 401, 404, 429),
        tag="historical",
    ),
    Route(
        "GET",
        "/historical/closing-lines",
        "The last price before kickoff and the final score of settled events (paid plans only)",
        {"type": "array", "items": {"$ref": "#/components/schemas/ClosingLine"}},
        params=(
            Param("sport", STRING, "sport slug", required=True, max_length=60),
            Param("leagues", LIST, "comma-separated league slugs", max_items=50, max_length=120),
            Param("from", DATETIME, "RFC 3339; kickoff at or after", required=True),
            Param(
                "to",
                DATETIME,
                "RFC 3339; kickoff before; at most 31 days after from",
                required=True,
            ),
            Param(
                "markets",
                LIST,
                "comma-separated market names (default ML)",
                max_items=20,
                max_length=80,
            ),
            BOOKMAKERS,
            Param(
                "limit",
                INTEGER,
                "at most this many events, earliest first",
                default=CLOSING_DEFAULT_LIMIT,
                minimum=1,
                maximum=CLOSING_MAX_LIMIT,
            ),
        ),
        errors=(400, 401, 403, 429),
        tag="historical",
        paid_only=True,
    ),
)
