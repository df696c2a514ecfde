"""Derived routes of the interface: value bets, arbitrage bets and dropping odds."""

from __future__ import annotations

from typing import Any

from oddstui.seed_markets import SEED_MARKETS
from oddstui.server.params import BOOLEAN, ENUM, INTEGER, LIST, NUMBER, STRING, Param
from oddstui.server.routes.spec import Route

#: /dropping-odds `sort`: the largest drop first, the latest move first, the soonest kick-off.
DROP_SORTS = ("drop", "recent", "kickoff")

DROP_MARKETS = SEED_MARKETS  # /dropping-odds takes the seed's list
ARB_DEFAULT_LIMIT, ARB_MAX_LIMIT = 50, 500
DROP_DEFAULT_LIMIT, DROP_MAX_LIMIT = 50, 200
TIME_WINDOWS = ("opening", "12h", "24h", "48h")
DETAILS = Param("includeEventDetails", BOOLEAN, "add the event object to each item", default=False)


def _items(name: str) -> dict[str, Any]:
    return {"type": "array", "items": {"$ref": f"#/components/schemas/{name}"}}


ROUTES = (
    Route(
        "GET",
        "/value-bets",
        "A bookmaker's prices above the fair price of the sharp books (margin removed)",
        _items("ValueBet"),
        params=(
            Param("bookmaker", STRING, "one bookmaker name", required=True, max_length=80),
            Param("sport", STRING, "sport slug", max_length=60),
            Param("league", STRING, "league slug; requires sport", max_length=120),
            DETAILS,
        ),
        tag="derived",
    ),
    Route(
        "GET",
        "/arbitrage-bets",
        "Best prices across the given bookmakers on exhaustive sides summing below 1",
        _items("ArbitrageBet"),
        params=(
            Param(
                "bookmakers",
                LIST,
                "comma-separated bookmaker names",
                required=True,
                max_items=1000,
                max_length=80,
            ),
            Param(
                "limit",
                INTEGER,
                "at most this many, best profit first",
                default=ARB_DEFAULT_LIMIT,
                minimum=1,
                maximum=ARB_MAX_LIMIT,
            ),
            DETAILS,
        ),
        tag="derived",
    ),
    Route(
        "GET",
        "/dropping-odds",
        "Prices that shortened, per window, largest drop first (paid plans only)",
        _items("DroppingOdds"),
        params=(
            Param("sport", STRING, "sport slug", max_length=60),
            Param(
                "league", STRING, "league slug; requires sport; not with leagues", max_length=120
            ),
            Param(
                "leagues",
                LIST,
                "comma-separated league slugs; not with league",
                max_items=50,
                max_length=120,
            ),
            Param(
                "markets",
                LIST,
                "comma-separated market names, case-insensitive: " + ", ".join(DROP_MARKETS),
                max_items=len(DROP_MARKETS),
                max_length=40,
            ),
            Param(
                "timeWindow",
                ENUM,
                "window used to filter and order",
                default="opening",
                choices=TIME_WINDOWS,
            ),
            Param(
                "minDrop",
                NUMBER,
                "minimum drop in percent in the window",
                default=0.0,
                minimum=0,
                maximum=100,
            ),
            Param(
                "limit",
                INTEGER,
                "items per page",
                default=DROP_DEFAULT_LIMIT,
                minimum=1,
                maximum=DROP_MAX_LIMIT,
            ),
            Param("page", INTEGER, "1-based page", default=1, minimum=1, maximum=1_000_000),
            Param(
                "sort",
                ENUM,
                "order: drop (the largest first), recent (the latest move first), kickoff "
                "(the soonest first)",
                default="drop",
                choices=DROP_SORTS,
            ),
            DETAILS,
        ),
        errors=(400, 401, 403, 429),
        tag="derived",
        paid_only=True,
    ),
)
