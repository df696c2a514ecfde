"""Derived feeds: value bets, arbitrage bets and dropping odds, from the world's own prices."""

from __future__ import annotations

from typing import Any

from oddstui.service.derived.dropping import DROP_MARKETS
from oddstui.service.errors import BadRequest, Forbidden
from oddstui.service.params import BOOLEAN, ENUM, INTEGER, LIST, NUMBER, STRING, Param
from oddstui.service.routes.lookup import bookmakers_or_400, league_or_400, sport_or_400
from oddstui.service.routes.spec import Call, Route

ARB_DEFAULT_LIMIT, ARB_MAX_LIMIT = 50, 500
DROP_DEFAULT_LIMIT, DROP_MAX_LIMIT = 50, 200
TIME_WINDOWS = ("opening", "12h", "24h", "48h")
DETAILS = Param("includeEventDetails", BOOLEAN, "add the event object to each item", default=False)


def value_bets(call: Call) -> bytes:
    world, q = call.world, call.q
    (bookie,) = bookmakers_or_400(world, [q["bookmaker"]], "bookmaker")
    sport = sport_or_400(world, q["sport"]) if q["sport"] else None
    if q["league"] and sport is None:
        raise BadRequest("league: requires sport")
    league = league_or_400(world, q["league"], sport) if q["league"] else None
    return call.svc.indexes.value.items(
        bookie,
        sport.slug if sport else None,
        league.slug if league else None,
        q["includeEventDetails"],
    )


def arbitrage_bets(call: Call) -> bytes:
    books = bookmakers_or_400(call.world, call.q["bookmakers"])
    return call.svc.indexes.arbitrage.items(books, call.q["limit"], call.q["includeEventDetails"])


def dropping_odds(call: Call) -> bytes:
    world, q = call.world, call.q
    assert call.account is not None
    if call.account.plan != "paid":
        raise Forbidden("apiKey: /dropping-odds is available on paid plans only")
    if q["league"] and q["leagues"]:
        raise BadRequest("league: cannot be combined with leagues; use one of them")
    sport = sport_or_400(world, q["sport"]) if q["sport"] else None
    if q["league"] and sport is None:
        raise BadRequest("league: requires sport")
    leagues: list[str] = []
    if q["league"]:
        leagues = [league_or_400(world, q["league"], sport).slug]
    elif q["leagues"]:
        leagues = [league_or_400(world, slug, sport, "leagues").slug for slug in q["leagues"]]
    markets: list[str] = []
    known = {name.lower(): name for name in DROP_MARKETS}
    for name in q["markets"] or []:
        if name.lower() not in known:
            raise BadRequest(
                f"markets: unknown market {name[:40]!r}; supported: {', '.join(DROP_MARKETS)}"
            )
        markets.append(known[name.lower()])
    return call.svc.indexes.dropping.items(
        sport=sport.slug if sport else None,
        leagues=leagues,
        markets=markets,
        window=q["timeWindow"],
        min_drop=q["minDrop"],
        limit=q["limit"],
        page=q["page"],
        details=q["includeEventDetails"],
    )


def _items(name: str) -> dict[str, Any]:
    return {"type": "array", "items": {"$ref": f"#/components/schemas/{name}"}}


ROUTES = (
    Route(
        "GET",
        "/value-bets",
        value_bets,
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
        arbitrage_bets,
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
        dropping_odds,
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
            DETAILS,
        ),
        errors=(400, 401, 403, 429),
        tag="derived",
    ),
)
