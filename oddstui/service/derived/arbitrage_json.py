"""An arbitrage item of GET /arbitrage-bets and its JSON: the legs at the books' own precision,
the optimal stakes for a total of 100, and the links of each leg."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from oddstui.book.arbitrage import find_arbitrage
from oddstui.server.item_text import (
    direct_link,
    item_id,
    market_reference,
    optimal_stakes,
    side_label,
)
from oddstui.service.derived.links import event_url, fixture_id, summary_strings
from oddstui.service.world.model import iso

if TYPE_CHECKING:
    from oddstui.service.world import World

TOTAL_STAKE = 100.0

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
    for leg in arb.legs:
        quoted = event.quotes.get(leg.bookmaker, {}).get(market_name)
        quoted_at = quoted.updated_at if quoted is not None else world.now()
        updated = max(updated, quoted_at)
        href = event_url(world, event, leg.bookmaker)
        legs.append(
            {
                "bookmaker": leg.bookmaker,
                "bookmakerFixtureId": fixture_id(world, event, leg.bookmaker),
                "directLink": direct_link(href, market_name, hdp, label, leg.side),
                "href": href,
                "label": side_label(
                    event.home.name, event.away.name, market_name, leg.side, hdp, label
                ),
                "odds": texts[leg.side],
                "side": leg.side,
                # How old this leg's price is: a stale leg is the usual reason for a big
                # arbitrage, and it is the leg most likely to move before the bet is placed.
                "updatedAt": iso(quoted_at),
            }
        )
    ident = "|".join(
        [str(event.id), market_name, repr(hdp), label or ""]
        + [f"{leg.side}@{leg.bookmaker}" for leg in arb.legs]
    )
    body: dict[str, Any] = {
        "id": item_id(ident),
        "eventId": event.id,
        "impliedProbability": round(arb.implied_probability, 6),
        "profitMargin": round(arb.profit_pct, 4),
        "totalStake": TOTAL_STAKE,
        "updatedAt": iso(updated or world.now()),
        "market": market_reference(market_name, hdp, label),
        "legs": legs,
        "optimalStakes": optimal_stakes(arb, TOTAL_STAKE),
    }
    item.plain = _encode(body)
    body["event"] = summary_strings(event)
    item.detailed = _encode(body)
    return True


def _encode(body: dict[str, Any]) -> bytes:
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()
