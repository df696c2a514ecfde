"""An arbitrage item of GET /arbitrage-bets and its JSON: the legs at the books' own precision,
the optimal stakes for a total of 100, and the links of each leg."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from oddstui.book.arbitrage import find_arbitrage
from oddstui.derived.items import arbitrage_body, leg_body
from oddstui.service.derived.links import event_url, fixture_id, summary_strings
from oddstui.service.world.model import iso

if TYPE_CHECKING:
    from oddstui.service.world import World

Key = tuple[str, float | None, str | None]  # (market name, hdp, label)
Best = tuple[float, str]  # (price, bookmaker)


@dataclass(slots=True)
class ArbItem:
    profit: float  # percent
    event_id: int
    key: Key
    legs: tuple[tuple[str, Best], ...]  # (side, (price, bookmaker)) in side order
    plain: bytes | None = None  # JSON without event details, once encoded
    detailed: bytes | None = None  # JSON with them


def encode_item(world: World, item: ArbItem) -> bool:
    """Fill the item's JSON; False when it cannot be shown (event gone, rounding)."""
    event = world.events.get(item.event_id)
    if event is None:
        return False
    market_name, hdp, label = item.key
    # Prices as the books show them (their own precision), so the legs add up as displayed.
    texts: dict[str, str] = {}
    shown: dict[str, tuple[float, str]] = {}
    for side, (price, bookie) in item.legs:
        texts[side] = f"{price:.{world.bookmakers[bookie].precision}f}"
        shown[side] = (float(texts[side]), bookie)
    arb = find_arbitrage(shown)
    if arb is None:
        return False
    updated = 0.0
    legs = []
    names = (event.home.name, event.away.name)
    for leg in arb.legs:
        quoted = event.quotes.get(leg.bookmaker, {}).get(market_name)
        quoted_at = quoted.updated_at if quoted is not None else world.now()
        updated = max(updated, quoted_at)
        links = (fixture_id(world, event, leg.bookmaker), event_url(world, event, leg.bookmaker))
        odds = texts[leg.side]
        legs.append(leg_body(item.key, leg.side, leg.bookmaker, names, odds, links, iso(quoted_at)))
    body = arbitrage_body(event.id, item.key, arb, legs, iso(updated or world.now()))
    item.plain = _encode(body)
    body["event"] = summary_strings(event)
    item.detailed = _encode(body)
    return True


def _encode(body: dict[str, Any]) -> bytes:
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()
