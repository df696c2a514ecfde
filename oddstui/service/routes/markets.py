"""GET /markets: the exact market names a sport of the world serves, and how each reads."""

from __future__ import annotations

from typing import Any

from oddstui.service.routes.call import Call, Handler
from oddstui.service.routes.lookup import sport_or_400
from oddstui.service.world import markets as defs
from oddstui.service.world.sports import SPORTS

_SHAPES = {
    defs.ML3: "home/draw/away",
    defs.ML2: "home/away",
    defs.DNB: "home/away",
    defs.SPREAD: "hdp home/away",
    defs.TOTALS: "hdp over/under",
    defs.TEAM_HOME: "hdp over/under",
    defs.TEAM_AWAY: "hdp over/under",
    defs.YESNO: "yes/no",
    defs.DC: "label yes/no",
    defs.PROPS: "label hdp over/under",
}
_PERIODS = {spec.slug: spec.periods for spec in SPORTS}


def market_entries(sport: str) -> list[dict[str, Any]]:
    count = _PERIODS.get(sport, 1)
    return [
        {
            "name": market.name,
            "shape": _SHAPES.get(market.kind, "yes/no"),
            "period": _period(market, count),
            "prematch": True,
            "live": True,
        }
        for market in defs.MARKETS_BY_SPORT.get(sport, [])
    ]


def _period(market: defs.MarketDef, count: int) -> str:
    """`match`, or the score's period keys it covers (`p1`, `p1-p2`)."""
    if market.set_no:
        return f"p{market.set_no}"
    start, end = market.scope
    if (start, end) == (0.0, 1.0):
        return "match"
    first, last = round(start * count) + 1, round(end * count)
    return f"p{first}" if first == last else f"p{first}-p{last}"


def markets(call: Call) -> list[dict[str, Any]]:
    return market_entries(sport_or_400(call.world, call.q["sport"]).slug)


HANDLERS: dict[str, Handler] = {"/markets": markets}
