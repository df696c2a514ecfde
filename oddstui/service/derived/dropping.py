"""The dropping-odds index behind GET /dropping-odds.

Each quoted event is measured at one reference book: a sharp book when one quotes it (its
prices move with the market, not with its own noise). For each line of the seed's dropping
markets and each of the sides home/away/over/under, the line's history (`world.movements`) is
cleaned by the noise rules of `book.dropping` (moves under a minute, reopen spikes, invalid
openings), then the drop since opening and over 12h/24h/48h windows is measured.

Events are recomputed when a sharp book changed them, and otherwise every `REFRESH` real
seconds (windows slide and short moves become stable with time).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from oddstui.book.dropping import drop_figures
from oddstui.seed_markets import SEED_MARKETS
from oddstui.server.item_text import drop_item, market_reference
from oddstui.service.derived.links import summary_named
from oddstui.service.world.model import Event

if TYPE_CHECKING:
    from oddstui.service.world import World

DROP_MARKETS = SEED_MARKETS  # /dropping-odds takes the seed's list
_DROP_MARKET_SET = frozenset(DROP_MARKETS)
BET_SIDES = ("home", "away", "over", "under")
REFRESH = 20.0  # real seconds


@dataclass(slots=True)
class DropItem:
    event_id: int
    sport: str
    league: str
    market: str
    drops: dict[str, float | None]  # "opening", "12h", "24h", "48h"
    order: tuple[Any, ...]
    plain: bytes
    detailed: bytes


class DroppingIndex:
    def __init__(self, world: World, clock: Callable[[], float] = time.monotonic) -> None:
        self.world = world
        self._clock = clock
        self._sharps = [b.name for b in world.bookmakers.values() if b.sharp and b.active]
        self._sharp_set = frozenset(self._sharps)
        self._by_event: dict[int, list[DropItem]] = {}
        self._computed: dict[int, float] = {}
        self._dirty: set[int] = set()

    def on_entries(self, entries: Iterable[Any]) -> None:
        sharps, dirty = self._sharp_set, self._dirty
        for entry in entries:
            if entry.bookie in sharps:
                dirty.add(entry.event_id)

    def on_event(self, event: Event) -> None:
        self._dirty.add(event.id)

    # -- queries
    def items(
        self,
        *,
        sport: str | None,
        leagues: list[str],
        markets: list[str],
        window: str,
        min_drop: float,
        limit: int,
        page: int,
        details: bool,
    ) -> bytes:
        self._refresh()
        wanted_leagues = set(leagues)
        wanted_markets = set(markets)
        chosen = []
        for items in self._by_event.values():
            for item in items:
                drop = item.drops[window]
                if drop is None or drop <= 0 or drop < min_drop:
                    continue
                if sport is not None and item.sport != sport:
                    continue
                if wanted_leagues and item.league not in wanted_leagues:
                    continue
                if wanted_markets and item.market not in wanted_markets:
                    continue
                chosen.append((-drop, item.order, item))
        chosen.sort(key=lambda row: (row[0], row[1]))
        start = (page - 1) * limit
        parts = [
            row[2].detailed if details else row[2].plain for row in chosen[start : start + limit]
        ]
        return b"[" + b",".join(parts) + b"]"

    # -- upkeep
    def _refresh(self) -> None:
        now_real = self._clock()
        quoted = {event.id: event for event in self.world.quoted_events()}
        for event_id in [i for i in self._by_event if i not in quoted]:
            del self._by_event[event_id]
            self._computed.pop(event_id, None)
        dirty, self._dirty = self._dirty, set()
        now = self.world.now()
        for event_id, event in quoted.items():
            computed = self._computed.get(event_id)
            if computed is None or event_id in dirty or now_real - computed > REFRESH:
                self._by_event[event_id] = self._event_items(event, now)
                self._computed[event_id] = now_real

    def _reference(self, event: Event) -> str | None:
        for name in self._sharps:
            if name in event.quotes:
                return name
        return min(event.quotes) if event.quotes else None

    def _event_items(self, event: Event, now: float) -> list[DropItem]:
        bookie = self._reference(event)
        if bookie is None:
            return []
        found = []
        for market in event.quotes[bookie].values():
            if market.name not in _DROP_MARKET_SET:
                continue
            for line in market.lines:
                sides = [s for s in BET_SIDES if s in line.prices]
                if not sides:
                    continue
                ticks = self.world.movements(event.id, bookie, market.name, line.hdp, line.label)
                if not ticks:
                    continue
                for side in sides:
                    item = self._item(event, market, line, side, ticks, now)
                    if item is not None:
                        found.append(item)
        return found

    def _item(self, event, market, line, side, ticks, now):
        figures = drop_figures([(ts, prices.get(side)) for ts, prices in ticks], now)
        if figures is None:
            return None
        wire_market = market_reference(market.name, line.hdp, line.label)
        body = drop_item(event.id, wire_market, side, figures, market.updated_at)
        plain = _encode(body)
        body["event"] = summary_named(event)
        order = (event.id, market.name, line.hdp or 0.0, line.label or "", side)
        return DropItem(
            event.id,
            event.sport.slug,
            event.league.slug,
            market.name,
            figures.drops,
            order,
            plain,
            _encode(body),
        )


def _encode(body: dict[str, Any]) -> bytes:
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()
