"""The arbitrage index behind GET /arbitrage-bets.

Arbitrage depends on the requested bookmaker set, so results are cached per set: the first
request for a set scans every active event; later requests recompute only events that one of
the set's bookmakers changed since (the world's `on_odds` entries mark them dirty). Each item's
JSON is encoded once, when its event is recomputed.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from oddstui.book.arbitrage import find_arbitrage, required_sides
from oddstui.service.derived.links import (
    direct_link,
    event_url,
    fixture_id,
    side_label,
    summary_strings,
)
from oddstui.service.derived.sports import DrawingSports
from oddstui.service.world.model import LIVE, PENDING, Event, iso

TOTAL_STAKE = 100.0
MAX_BOOK_SETS = 16  # cached bookmaker sets, least recently used dropped first
BACK_SIDES = frozenset({"home", "draw", "away", "over", "under", "yes", "no", "odd", "even"})
_SIDE_ORDER = {"home": 0, "draw": 1, "away": 2, "over": 3, "under": 4, "yes": 5, "no": 6}


@dataclass(slots=True)
class ArbItem:
    profit: float
    id: str
    plain: bytes  # JSON without event details
    detailed: bytes  # JSON with them


@dataclass(slots=True)
class _BookSet:
    books: frozenset[str]
    by_event: dict[int, list[ArbItem]] = field(default_factory=dict)
    dirty: set[int] = field(default_factory=set)
    scanned: bool = False


@lru_cache(maxsize=4096)
def _required(market: str, has_draw: bool, sides: frozenset[str]) -> tuple[str, ...] | None:
    needed = required_sides(market, has_draw, sides)
    if needed is None or not needed <= sides:
        return None
    return tuple(sorted(needed, key=lambda side: _SIDE_ORDER.get(side, 99)))


class ArbitrageIndex:
    def __init__(self, world: Any, draws: DrawingSports) -> None:
        self.world = world
        self.draws = draws
        self._sets: OrderedDict[frozenset[str], _BookSet] = OrderedDict()

    # -- world listener calls (inside the world's step: cheap bookkeeping only)
    def on_entries(self, entries: Iterable[Any]) -> None:
        if not self._sets:
            return
        pairs = [(entry.event_id, entry.bookie) for entry in entries]
        for book_set in self._sets.values():
            books, dirty = book_set.books, book_set.dirty
            for event_id, bookie in pairs:
                if bookie in books:
                    dirty.add(event_id)

    def on_event(self, event: Event) -> None:
        for book_set in self._sets.values():
            book_set.dirty.add(event.id)

    # -- queries
    def items(self, books: Iterable[str], limit: int, details: bool) -> bytes:
        """The best `limit` arbitrage items across `books`, as a JSON array."""
        book_set = self._book_set(frozenset(books))
        chosen: list[ArbItem] = []
        for items in book_set.by_event.values():
            chosen.extend(items)
        chosen.sort(key=lambda item: (-item.profit, item.id))
        parts = [item.detailed if details else item.plain for item in chosen[:limit]]
        return b"[" + b",".join(parts) + b"]"

    def _book_set(self, books: frozenset[str]) -> _BookSet:
        book_set = self._sets.get(books)
        if book_set is None:
            book_set = _BookSet(books)
            self._sets[books] = book_set
            while len(self._sets) > MAX_BOOK_SETS:
                self._sets.popitem(last=False)
        else:
            self._sets.move_to_end(books)
        events = self.world.events
        if not book_set.scanned:
            book_set.scanned = True
            book_set.dirty.clear()
            todo: Iterable[int] = [e.id for e in events.values() if e.status in (PENDING, LIVE)]
        else:
            todo, book_set.dirty = book_set.dirty, set()
        for event_id in todo:
            event = events.get(event_id)
            found = self._event_items(event, books) if event is not None else []
            if found:
                book_set.by_event[event_id] = found
            else:
                book_set.by_event.pop(event_id, None)
        return book_set

    # -- computing one event
    def _event_items(self, event: Event, books: frozenset[str]) -> list[ArbItem]:
        if event.status not in (PENDING, LIVE):
            return []
        quotes = event.quotes
        names = (
            [b for b in quotes if b in books]
            if len(quotes) < len(books)
            else [b for b in books if b in quotes]
        )
        if len(names) < 2:
            return []
        best: dict[tuple[str, float | None, str | None], dict[str, tuple[float, str]]] = {}
        for bookie in names:
            for market in quotes[bookie].values():
                name = market.name
                for line in market.lines:
                    key = (name, line.hdp, line.label)
                    slot = best.get(key)
                    if slot is None:
                        slot = best[key] = {}
                    for side, price in line.prices.items():
                        current = slot.get(side)
                        if (
                            current is None
                            or price > current[0]
                            or (price == current[0] and bookie < current[1])
                        ):
                            slot[side] = (price, bookie)
        has_draw = self.draws.has_draw(event.sport.slug)
        found = []
        for key, slot in best.items():
            sides = _required(key[0], has_draw, frozenset(s for s in slot if s in BACK_SIDES))
            if sides is None or sum(1.0 / slot[side][0] for side in sides) >= 1.0:
                continue
            item = self._item(event, key, {side: slot[side] for side in sides})
            if item is not None:
                found.append(item)
        return found

    def _item(
        self,
        event: Event,
        key: tuple[str, float | None, str | None],
        best: dict[str, tuple[float, str]],
    ) -> ArbItem | None:
        world = self.world
        market_name, hdp, label = key
        # Prices as the books show them (their own precision), so the legs add up as displayed.
        shown: dict[str, tuple[float, str]] = {}
        texts: dict[str, str] = {}
        for side, (price, bookie) in best.items():
            precision = world.bookmakers[bookie].precision
            texts[side] = f"{price:.{precision}f}"
            shown[side] = (float(texts[side]), bookie)
        arb = find_arbitrage(shown)
        if arb is None:
            return None
        stakes = arb.stakes(TOTAL_STAKE)
        payout = arb.potential_return(TOTAL_STAKE)
        updated = 0.0
        legs, optimal = [], []
        for leg, stake in zip(arb.legs, stakes, strict=True):
            quoted = event.quotes[leg.bookmaker].get(market_name)
            if quoted is not None:
                updated = max(updated, quoted.updated_at)
            href = event_url(world, event, leg.bookmaker)
            legs.append(
                {
                    "bookmaker": leg.bookmaker,
                    "bookmakerFixtureId": fixture_id(world, event, leg.bookmaker),
                    "directLink": direct_link(href, market_name, hdp, label, leg.side),
                    "href": href,
                    "label": side_label(event, market_name, leg.side, hdp, label),
                    "odds": texts[leg.side],
                    "side": leg.side,
                }
            )
            optimal.append(
                {
                    "bookmaker": leg.bookmaker,
                    "side": leg.side,
                    "stake": round(stake, 6),
                    "potentialReturn": round(payout, 6),
                }
            )
        ident = "|".join(
            [str(event.id), market_name, repr(hdp), label or ""]
            + [f"{leg.side}@{leg.bookmaker}" for leg in arb.legs]
        )
        market: dict[str, Any] = {"name": market_name}
        if hdp is not None:
            market["hdp"] = hdp
        if label is not None:
            market["label"] = label
        body: dict[str, Any] = {
            "id": hashlib.blake2s(ident.encode(), digest_size=8).hexdigest(),
            "eventId": event.id,
            "impliedProbability": round(arb.implied_probability, 6),
            "profitMargin": round(arb.profit_pct, 4),
            "totalStake": TOTAL_STAKE,
            "updatedAt": iso(updated or world.now()),
            "market": market,
            "legs": legs,
            "optimalStakes": optimal,
        }
        plain = _encode(body)
        body["event"] = summary_strings(event)
        return ArbItem(arb.profit_pct, body["id"], plain, _encode(body))


def _encode(body: dict[str, Any]) -> bytes:
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()
