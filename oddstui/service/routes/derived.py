"""Derived feeds: value bets, arbitrage bets and dropping odds, from the world's own prices."""

from __future__ import annotations

from oddstui.derived.dropping import DropQuery, check_leagues
from oddstui.server.errors import BadRequest
from oddstui.service.routes.call import Call, Handler
from oddstui.service.routes.lookup import bookmakers_or_400, league_or_400, sport_or_400


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
    sport = sport_or_400(world, q["sport"]) if q["sport"] else None
    check_leagues(q["league"], q["leagues"], sport)
    leagues: list[str] = []
    if q["league"]:
        leagues = [league_or_400(world, q["league"], sport).slug]
    elif q["leagues"]:
        leagues = [league_or_400(world, slug, sport, "leagues").slug for slug in q["leagues"]]
    return call.svc.indexes.dropping.items(DropQuery.of(q, sport.slug if sport else None, leagues))


HANDLERS: dict[str, Handler] = {
    "/value-bets": value_bets,
    "/arbitrage-bets": arbitrage_bets,
    "/dropping-odds": dropping_odds,
}
