"""GET /dropping-odds, for any source: the request's checks, one line's drops measured by
`book.dropping`, and the page of the largest drops."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from oddstui.book.dropping import Tick, drop_figures
from oddstui.seed_markets import SEED_MARKETS
from oddstui.server.errors import BadRequest
from oddstui.server.item_text import drop_item, market_reference
from oddstui.server.params import shown

DROP_MARKETS = SEED_MARKETS  # /dropping-odds takes the seed's list
BET_SIDES = ("home", "away", "over", "under")
_KNOWN = {name.casefold(): name for name in DROP_MARKETS}

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Drop:
    """One side of one line with its drops: the item (without `event`) and what filters it."""

    item: Json
    event_id: int
    sport: str
    league: str
    market: str
    drops: dict[str, float | None]  # "opening", "12h", "24h", "48h"
    order: tuple[Any, ...]
    encoded: tuple[bytes, bytes] | None = None
    """The source's JSON of it, without and with `event`, when it keeps it encoded."""


@dataclass(frozen=True, slots=True)
class DropQuery:
    """What a GET /dropping-odds asks for, checked."""

    sport: str | None
    leagues: Sequence[str]
    markets: Sequence[str]
    window: str
    min_drop: float
    limit: int
    page: int
    details: bool
    sort: str = "drop"

    @classmethod
    def of(cls, q: Mapping[str, Any], sport: str | None, leagues: Sequence[str]) -> DropQuery:
        """From the route's parsed query `q`, with the sport and leagues the source checked."""
        return cls(
            sport,
            leagues,
            drop_markets(q["markets"]),
            q["timeWindow"],
            q["minDrop"],
            q["limit"],
            q["page"],
            q["includeEventDetails"],
            q["sort"],
        )


def check_leagues(league: str | None, leagues: Sequence[str] | None, sport: object) -> None:
    if league and leagues:
        raise BadRequest("league: cannot be combined with leagues; use one of them")
    if league and sport is None:
        raise BadRequest("league: requires sport")


def drop_markets(names: Iterable[str] | None) -> list[str]:
    """The `markets` asked for, by their seed names (case-insensitive); 400 on an unknown one."""
    found = []
    for name in names or ():
        known = _KNOWN.get(name.casefold())
        if known is None:
            raise BadRequest(
                f"markets: unknown market {shown(name)}; supported: {', '.join(DROP_MARKETS)}"
            )
        found.append(known)
    return found


def line_drops(
    event: tuple[int, str, str],
    line: tuple[str, float | None, str | None],
    sides: Iterable[str],
    ticks: Callable[[str], list[Tick]],
    now: float,
    updated_at: float,
) -> list[Drop]:
    """The drops of each of `sides` of one line from its price history (`ticks(side)`);
    `event` is (id, sport slug, league slug)."""
    event_id, sport, league = event
    name, hdp, label = line
    found = []
    for side in sides:
        if side not in BET_SIDES:
            continue
        figures = drop_figures(ticks(side), now)
        if figures is None:
            continue
        item = drop_item(event_id, market_reference(name, hdp, label), side, figures, updated_at)
        order = (event_id, name, hdp or 0.0, label or "", side)
        found.append(Drop(item, event_id, sport, league, name, figures.drops, order))
    return found


def page_of_drops(
    drops: Iterable[Drop], query: DropQuery, kickoff: Callable[[int], Any] | None = None
) -> list[Drop]:
    """The drops the query asks for, in its `sort` (the largest drop in its window first, the
    latest move first, or the soonest kick-off by `kickoff(event id)` first), one page."""
    wanted_leagues, wanted_markets = set(query.leagues), set(query.markets)
    chosen = []
    for drop in drops:
        value = drop.drops[query.window]
        if value is None or value <= 0 or value < query.min_drop:
            continue
        if query.sport is not None and drop.sport != query.sport:
            continue
        if wanted_leagues and drop.league not in wanted_leagues:
            continue
        if wanted_markets and drop.market not in wanted_markets:
            continue
        if query.sort == "recent":
            key: tuple[Any, ...] = (-(drop.item.get("lastMovedAt") or 0), -value)
        elif query.sort == "kickoff" and kickoff is not None:
            key = (kickoff(drop.event_id), -value)
        else:
            key = (-value,)
        chosen.append((key, drop.order, drop))
    chosen.sort(key=lambda row: (row[0], row[1]))
    start = (query.page - 1) * query.limit
    return [row[2] for row in chosen[start : start + query.limit]]
