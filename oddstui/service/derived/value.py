"""The value-bet index behind GET /value-bets.

A bookmaker's price is a value bet when it beats the fair price of the same market and line by
the desk's one fair-price policy (`book.fair_policy`: the first sharp book quoting every side,
its margin removed). Results are cached per bookmaker and recomputed for events that the
bookmaker or a sharp book changed since the last request.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from oddstui.book.fair_policy import FAIR_POLICY
from oddstui.book.value import MIN_VALUE_EV
from oddstui.derived.items import value_body
from oddstui.derived.listed import is_listed
from oddstui.derived.value import LineValue, line_value
from oddstui.service.derived.links import event_url, summary_strings
from oddstui.service.derived.sports import DrawingSports
from oddstui.service.world.model import Event, Line, Market, iso

if TYPE_CHECKING:
    from oddstui.service.world import World

MIN_EV = MIN_VALUE_EV
MAX_BOOKIES = 32  # cached bookmakers, least recently used dropped first


@dataclass(slots=True)
class ValueItem:
    ev: float
    sport: str
    league: str
    id: str
    plain: bytes
    detailed: bytes


@dataclass(slots=True)
class _PerBookie:
    by_event: dict[int, list[ValueItem]] = field(default_factory=dict)
    dirty: set[int] = field(default_factory=set)
    known: set[int] = field(default_factory=set)  # quoted events looked at
    scanned: bool = False


class ValueIndex:
    def __init__(self, world: World, draws: DrawingSports) -> None:
        self.world = world
        self.draws = draws
        books = world.bookmakers
        self.sharps = [b for b in FAIR_POLICY.books if b in books and books[b].active]
        self._sharp_set = frozenset(self.sharps)
        self._cache: OrderedDict[str, _PerBookie] = OrderedDict()

    def on_entries(self, entries: Iterable[Any]) -> None:
        if not self._cache:
            return
        sharps = self._sharp_set
        for entry in entries:
            if entry.bookie in sharps:
                for cached in self._cache.values():
                    cached.dirty.add(entry.event_id)
            else:
                cached_one = self._cache.get(entry.bookie)
                if cached_one is not None:
                    cached_one.dirty.add(entry.event_id)

    def on_event(self, event: Event) -> None:
        for cached in self._cache.values():
            cached.dirty.add(event.id)

    def items(self, bookie: str, sport: str | None, league: str | None, details: bool) -> bytes:
        cached = self._refresh(bookie)
        chosen = [
            item
            for items in cached.by_event.values()
            for item in items
            if (sport is None or item.sport == sport) and (league is None or item.league == league)
        ]
        chosen.sort(key=lambda item: (-item.ev, item.id))
        return b"[" + b",".join(i.detailed if details else i.plain for i in chosen) + b"]"

    def _refresh(self, bookie: str) -> _PerBookie:
        cached = self._cache.get(bookie)
        if cached is None:
            cached = self._cache[bookie] = _PerBookie()
            while len(self._cache) > MAX_BOOKIES:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(bookie)
        events = self.world.events
        # Every quoted event the bookie quotes: changed ones again, and ones whose quotes
        # opened without a journal entry (the world opens quotes lazily).
        quoted = {e.id for e in self.world.quoted_events() if bookie in e.quotes}
        todo = quoted - cached.known if cached.scanned else quoted
        if cached.scanned:
            todo |= cached.dirty & quoted
        cached.scanned = True
        cached.dirty = set()
        for event_id in cached.known - quoted:
            cached.by_event.pop(event_id, None)
        cached.known = quoted
        for event_id in todo:
            found = self._event_items(events[event_id], bookie)
            if found:
                cached.by_event[event_id] = found
            else:
                cached.by_event.pop(event_id, None)
        return cached

    def _event_items(self, event: Event, bookie: str) -> list[ValueItem]:
        if not is_listed(event.status) or bookie in self._sharp_set:
            return []
        if (event.id, bookie) in getattr(self.world, "_suspended", ()):
            return []  # a suspended book offers nothing (GET /odds shows no markets for it)
        markets = event.quotes.get(bookie)
        sharp_books = [s for s in self.sharps if s in event.quotes]
        if not markets or not sharp_books:
            return []
        has_draw = self.draws.has_draw(event.sport.slug)
        found = []
        for market in markets.values():
            sharp_markets = {s: event.quotes[s].get(market.name) for s in sharp_books}
            for line in market.lines:
                sharp = _sharp_lines(sharp_markets, line.hdp, line.label)
                value = line_value(market.name, has_draw, line.prices, sharp, MIN_EV)
                if value is None:
                    continue
                sharp_market = sharp_markets[value.fair.book]
                fair_at = 0.0 if sharp_market is None else sharp_market.updated_at
                for bet in value.bets:
                    found.append(self._item(event, bookie, market, line, bet, value, fair_at))
        return found

    def _item(
        self,
        event: Event,
        bookie: str,
        market: Market,
        line: Line,
        bet: tuple[str, float],
        value: LineValue,
        fair_at: float,
    ) -> ValueItem:
        precision = self.world.bookmakers[bookie].precision
        texts = {s: f"{line.prices[s]:.{precision}f}" for s in value.sides}
        body = value_body(
            event.id,
            (market.name, line.hdp, line.label),
            bookie,
            bet,
            (value.sides, value.fair),
            (texts, line.max, iso(market.updated_at)),
            event_url(self.world, event, bookie),
            iso(max(market.updated_at, fair_at)),
        )
        plain = _encode(body)
        body["event"] = summary_strings(event)
        ev = bet[1]
        return ValueItem(ev, event.sport.slug, event.league.slug, body["id"], plain, _encode(body))


def _sharp_lines(
    markets: dict[str, Market | None], hdp: float | None, label: str | None
) -> dict[str, dict[str, float]]:
    """Each sharp book's prices of one line, when it quotes it."""
    found = {}
    for book, market in markets.items():
        if market is None:
            continue
        for line in market.lines:
            if line.hdp == hdp and line.label == label:
                found[book] = line.prices
                break
    return found


def _encode(body: dict[str, Any]) -> bytes:
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()
