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
from oddstui.book.value import MIN_VALUE_EV, ev_percent
from oddstui.server.item_text import direct_link, item_id, market_reference
from oddstui.service.derived.arbitrage import BACK_SIDES, _required
from oddstui.service.derived.links import event_url, summary_strings
from oddstui.service.derived.sports import DrawingSports
from oddstui.service.world.model import LIVE, PENDING, Event, iso

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
        if event.status not in (PENDING, LIVE) or bookie in self._sharp_set:
            return []
        if (event.id, bookie) in getattr(self.world, "_suspended", ()):
            return []  # a suspended book offers nothing (GET /odds shows no markets for it)
        markets = event.quotes.get(bookie)
        sharp_quotes = [(s, event.quotes[s]) for s in self.sharps if s in event.quotes]
        if not markets or not sharp_quotes:
            return []
        has_draw = self.draws.has_draw(event.sport.slug)
        found = []
        for market in markets.values():
            for line in market.lines:
                sides = _required(
                    market.name, has_draw, frozenset(s for s in line.prices if s in BACK_SIDES)
                )
                if sides is None:
                    continue
                found_fair = _fair(sharp_quotes, market.name, line.hdp, line.label, sides)
                if found_fair is None:
                    continue
                fair, fair_at = found_fair
                for side, p in zip(sides, fair, strict=True):
                    ev = ev_percent(p, line.prices[side])
                    if ev >= MIN_EV:
                        found.append(
                            self._item(event, bookie, market, line, sides, side, ev, fair, fair_at)
                        )
        return found

    def _item(self, event, bookie, market, line, sides, side, ev, fair, fair_at):
        precision = self.world.bookmakers[bookie].precision
        href = event_url(self.world, event, bookie)
        odds: dict[str, str] = {s: f"{line.prices[s]:.{precision}f}" for s in sides}
        if line.hdp is not None:
            odds["hdp"] = f"{line.hdp:g}"
        for s in sides:
            odds[f"{s}DirectLink"] = direct_link(href, market.name, line.hdp, line.label, s)
        odds["href"] = href
        # The quote's own age, apart from when the edge last changed: an old quote beside a
        # fresh fair price is a stale line, which a client may flag.
        odds["updatedAt"] = iso(market.updated_at)
        reference = market_reference(market.name, line.hdp, line.label)
        for s, p in zip(sides, fair, strict=True):
            reference[s] = f"{1.0 / p:.3f}"
        if line.max is not None:
            reference["max"] = line.max
        ident = f"{event.id}|{bookie}|{market.name}|{line.hdp!r}|{line.label or ''}|{side}"
        body: dict[str, Any] = {
            "id": item_id(ident),
            "eventId": event.id,
            "bookmaker": bookie,
            "betSide": side,
            "expectedValue": round(ev, 3),
            "expectedValueUpdatedAt": iso(max(market.updated_at, fair_at)),
            "bookmakerOdds": odds,
            "market": reference,
        }
        plain = _encode(body)
        body["event"] = summary_strings(event)
        return ValueItem(ev, event.sport.slug, event.league.slug, body["id"], plain, _encode(body))


def _fair(
    sharp_quotes: list[tuple[str, dict[str, Any]]],
    name: str,
    hdp: float | None,
    label: str | None,
    sides: tuple[str, ...],
) -> tuple[list[float], float] | None:
    """Fair probabilities per side by the fair-price policy, and the time of the sharp book's
    quote they come from."""
    lines: dict[str, dict[str, float]] = {}
    stamps: dict[str, float] = {}
    for book, quotes in sharp_quotes:
        market = quotes.get(name)
        if market is None:
            continue
        for line in market.lines:
            if line.hdp == hdp and line.label == label:
                lines[book], stamps[book] = line.prices, market.updated_at
                break
    found = FAIR_POLICY.fair_line(lines, sides)
    return None if found is None else (list(found.probabilities), stamps[found.book])


def _encode(body: dict[str, Any]) -> bytes:
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()
