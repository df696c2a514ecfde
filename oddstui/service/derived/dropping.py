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
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

from oddstui.book.dropping import Tick
from oddstui.book.fair_policy import FAIR_POLICY
from oddstui.derived.dropping import DROP_MARKETS, Drop, DropQuery, line_drops, page_of_drops
from oddstui.service.derived.links import summary_named
from oddstui.service.world.model import Event

if TYPE_CHECKING:
    from oddstui.service.world import World

_DROP_MARKET_SET = frozenset(DROP_MARKETS)
REFRESH = 20.0  # real seconds


class DroppingIndex:
    def __init__(self, world: World, clock: Callable[[], float] = time.monotonic) -> None:
        self.world = world
        self._clock = clock
        books = world.bookmakers
        self._sharps = [b for b in FAIR_POLICY.books if b in books and books[b].active]
        self._sharp_set = frozenset(self._sharps)
        self._by_event: dict[int, list[Drop]] = {}
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
    def items(self, query: DropQuery) -> bytes:
        self._refresh()
        drops = (drop for drops in self._by_event.values() for drop in drops)
        shown = 1 if query.details else 0
        page = page_of_drops(drops, query, self._kickoff)
        parts = [drop.encoded[shown] for drop in page if drop.encoded]
        return b"[" + b",".join(parts) + b"]"

    def _kickoff(self, event_id: int) -> float:
        return self.world.events[event_id].start

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

    def _event_items(self, event: Event, now: float) -> list[Drop]:
        bookie = self._reference(event)
        if bookie is None:
            return []
        found = []
        about = (event.id, event.sport.slug, event.league.slug)
        named = summary_named(event)
        for market in event.quotes[bookie].values():
            if market.name not in _DROP_MARKET_SET:
                continue
            for line in market.lines:
                ticks = self.world.movements(event.id, bookie, market.name, line.hdp, line.label)
                if not ticks:
                    continue
                for drop in line_drops(
                    about,
                    (market.name, line.hdp, line.label),
                    line.prices,
                    partial(_side_ticks, ticks),
                    now,
                    market.updated_at,
                ):
                    plain = _encode(drop.item)
                    detailed = _encode({**drop.item, "event": named})
                    found.append(replace(drop, encoded=(plain, detailed)))
        return found


def _side_ticks(ticks: list[tuple[float, dict[str, float]]], side: str) -> list[Tick]:
    return [(ts, prices.get(side)) for ts, prices in ticks]


def _encode(body: dict[str, Any]) -> bytes:
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()
