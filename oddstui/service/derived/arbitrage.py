"""The arbitrage index behind GET /arbitrage-bets.

Arbitrage depends on the requested bookmaker set, so state is kept per set (the last few sets
asked for). For each quoted event it holds the best price per (market, line, side) among the
set's books and which book holds it. A change of one (event, bookie) pair (the world's `on_odds`
entries) is applied incrementally: the bookie's prices that beat the best take over, and only
positions it held and no longer offers are searched again across the set. Only lines whose best
prices changed are checked for arbitrage again, and an item's JSON is encoded once per distinct
set of legs.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from oddstui.book.arbitrage import find_arbitrage
from oddstui.derived.listed import is_listed
from oddstui.derived.value import needed_sides
from oddstui.service.derived.arbitrage_json import ArbItem, Best, Key, encode_item
from oddstui.service.derived.sports import DrawingSports
from oddstui.service.world.model import Event, Market

if TYPE_CHECKING:
    from oddstui.service.world import JournalEntry, World

MAX_BOOK_SETS = 16  # book sets kept, least recently used dropped first
IDLE = 300.0  # real seconds after which a book set nobody asks for is forgotten
SWEEP_EVERY = 1.0  # real seconds between background sweeps for unannounced quote changes
BACK_SIDES = frozenset({"home", "draw", "away", "over", "under", "yes", "no", "odd", "even"})


@dataclass(slots=True)
class _EventState:
    best: dict[Key, dict[str, Best]] = field(default_factory=dict)
    # bookie -> market name -> the (line, side) positions where it has the best price
    held: dict[str, dict[str, set[tuple[Key, str]]]] = field(default_factory=dict)
    arbs: dict[Key, ArbItem] = field(default_factory=dict)
    # bookie -> market name -> its lines list when last applied (the world replaces it on change)
    stamps: dict[str, dict[str, Any]] = field(default_factory=dict)
    paused: set[str] = field(default_factory=set)  # books suspended when last applied


@dataclass(slots=True)
class _BookSet:
    books: frozenset[str]
    events: dict[int, _EventState] = field(default_factory=dict)
    pending: set[tuple[int, str]] = field(default_factory=set)
    built: bool = False
    used: float = 0.0  # time.monotonic() of the last request for this set


def _beats(price: float, bookie: str, current: Best | None) -> bool:
    """The same tie rule as `book.arbitrage.best_prices`: higher price, then the name first."""
    return current is None or price > current[0] or (price == current[0] and bookie < current[1])


def _price(market: Market | None, key: Key, side: str) -> float | None:
    if market is None:
        return None
    for line in market.lines:
        if line.hdp == key[1] and line.label == key[2]:
            return line.prices.get(side)
    return None


class ArbitrageIndex:
    def __init__(self, world: World, draws: DrawingSports) -> None:
        self.world = world
        self.draws = draws
        self._sets: OrderedDict[frozenset[str], _BookSet] = OrderedDict()
        self._swept = 0.0

    # -- world listener calls (inside the world's step: cheap bookkeeping only)
    def on_entries(self, entries: Iterable[JournalEntry]) -> None:
        if not self._sets:
            return
        pairs = [(entry.event_id, entry.bookie) for entry in entries]
        for book_set in self._sets.values():
            books, pending = book_set.books, book_set.pending
            for pair in pairs:
                if pair[1] in books:
                    pending.add(pair)

    def on_event(self, event: Event) -> None:
        if not is_listed(event.status):
            for book_set in self._sets.values():
                book_set.events.pop(event.id, None)

    # -- queries
    def items(self, books: Iterable[str], limit: int, details: bool) -> bytes:
        """The best `limit` arbitrage items across `books`, as a JSON array."""
        book_set = self._book_set(frozenset(books))
        chosen = [item for state in book_set.events.values() for item in state.arbs.values()]
        chosen.sort(key=lambda item: (-item.profit, item.event_id))
        parts: list[bytes] = []
        for item in chosen:
            if len(parts) >= limit:
                break
            if item.plain is None and not encode_item(self.world, item):
                continue
            parts.append((item.detailed if details else item.plain) or b"")
        return b"[" + b",".join(parts) + b"]"

    def drain(self, budget: float) -> None:
        """Background upkeep: apply pending changes for up to `budget` seconds, so requests
        find little left to do; every `SWEEP_EVERY` seconds also look for unannounced quote
        changes; forget book sets nobody asked for lately."""
        deadline = time.perf_counter() + budget
        now = time.monotonic()
        sweep = now - self._swept > SWEEP_EVERY
        if sweep:
            self._swept = now
        for books, book_set in list(self._sets.items()):
            if now - book_set.used > IDLE:
                del self._sets[books]
            elif book_set.built:
                if sweep:
                    self.sweep(book_set)
                if not self._apply_pending(book_set, deadline):
                    return

    def sweep_all(self) -> None:
        """Sweep every book set now (tests; the background upkeep does it periodically)."""
        for book_set in self._sets.values():
            if book_set.built:
                self._apply_pending(book_set, None)
                self.sweep(book_set)

    def _book_set(self, books: frozenset[str]) -> _BookSet:
        book_set = self._sets.get(books)
        if book_set is None:
            book_set = self._sets[books] = _BookSet(books)
            while len(self._sets) > MAX_BOOK_SETS:
                self._sets.popitem(last=False)
        else:
            self._sets.move_to_end(books)
        book_set.used = time.monotonic()
        if not book_set.built:
            book_set.built = True
            book_set.pending.clear()
            self.sweep(book_set)
        else:
            self._apply_pending(book_set, None)
            self._follow_events(book_set)
        return book_set

    def _follow_events(self, book_set: _BookSet) -> None:
        """Events whose quotes opened or closed without journal entries (the world opens
        quotes lazily and puts far-off ones away cold)."""
        quoted = {event.id: event for event in self.world.quoted_events()}
        for event_id in [i for i in book_set.events if i not in quoted]:
            del book_set.events[event_id]
        for event_id, event in quoted.items():
            if event_id not in book_set.events:
                for bookie in event.quotes:
                    if bookie in book_set.books:
                        self._apply(book_set, event, bookie)

    def sweep(self, book_set: _BookSet) -> None:
        """Catch every change the journal did not announce: quotes opened, replaced, emptied or
        suspended without an entry. An identity check per (event, bookie, market)."""
        self._follow_events(book_set)
        books = book_set.books
        suspended = getattr(self.world, "_suspended", ())
        events = self.world.events
        for event_id, state in list(book_set.events.items()):
            event = events[event_id]
            for bookie, markets in event.quotes.items():
                if bookie not in books:
                    continue
                stamps = state.stamps.get(bookie)
                paused = bool(suspended) and (event_id, bookie) in suspended
                if stamps is None or paused != (bookie in state.paused):
                    self._apply(book_set, event, bookie)
                elif not paused and (
                    len(stamps) != len(markets)
                    or any(stamps.get(name) is not m.lines for name, m in markets.items())
                ):
                    self._apply(book_set, event, bookie)
            for bookie in [b for b in state.stamps if b not in event.quotes]:
                self._apply(book_set, event, bookie)
                del state.stamps[bookie]

    def _apply_pending(self, book_set: _BookSet, deadline: float | None) -> bool:
        """Apply the set's pending changes; False when the deadline cut it short."""
        events, pending = self.world.events, book_set.pending
        done = 0
        while pending:
            event_id, bookie = pending.pop()
            event = events.get(event_id)
            if event is None or not is_listed(event.status):
                book_set.events.pop(event_id, None)
            else:
                self._apply(book_set, event, bookie)
            done += 1
            if deadline is not None and done % 16 == 0 and time.perf_counter() > deadline:
                return False
        return True

    # -- incremental upkeep
    def _apply(self, book_set: _BookSet, event: Event, bookie: str) -> None:
        """Bring the set's best prices up to date with one bookie's current quotes.

        Only the bookie's markets whose lines changed (or vanished) since it was last applied
        are looked at; a position it held there and no longer offers is searched again.
        """
        state = book_set.events.get(event.id)
        if state is None:
            state = book_set.events[event.id] = _EventState()
        suspended = (event.id, bookie) in getattr(self.world, "_suspended", ())
        if suspended:
            state.paused.add(bookie)
        else:
            state.paused.discard(bookie)
        markets = {} if suspended else event.quotes.get(bookie, {})
        held = state.held.setdefault(bookie, {})
        stamps = state.stamps.setdefault(bookie, {})
        touched: set[Key] = set()
        for name in [n for n in set(stamps) | set(held) if n not in markets]:
            stamps.pop(name, None)
            for key, side in held.pop(name, ()):
                self._rescan(book_set, state, event, key, side)
                touched.add(key)
        for name, market in markets.items():
            lines = market.lines
            if stamps.get(name) is lines:
                continue  # the same lines as when last applied
            stamps[name] = lines
            positions = held.get(name)
            if positions:
                for position in list(positions):
                    key, side = position
                    price = _price(market, key, side)
                    current = state.best[key][side]
                    if price is None or price < current[0]:
                        positions.discard(position)
                        self._rescan(book_set, state, event, key, side)
                        touched.add(key)
                    elif price > current[0]:
                        state.best[key][side] = (price, bookie)
                        touched.add(key)
            for line in lines:
                key = (name, line.hdp, line.label)
                slot = state.best.get(key)
                if slot is None:
                    slot = state.best[key] = {}
                for side, price in line.prices.items():
                    if side not in BACK_SIDES:
                        continue
                    holder = slot.get(side)
                    if holder is not None and holder[1] == bookie:
                        continue
                    if _beats(price, bookie, holder):
                        if holder is not None:
                            state.held[holder[1]][name].discard((key, side))
                        slot[side] = (price, bookie)
                        held.setdefault(name, set()).add((key, side))
                        touched.add(key)
        for key in touched:
            self._check(state, event, key)

    def _rescan(
        self, book_set: _BookSet, state: _EventState, event: Event, key: Key, side: str
    ) -> None:
        """Find the best price for one side of one line across the set's books again."""
        name, hdp, label = key
        books = book_set.books
        suspended = getattr(self.world, "_suspended", ())
        event_id = event.id
        best: Best | None = None
        for bookie, markets in event.quotes.items():
            if bookie not in books:
                continue
            market = markets.get(name)
            if market is None or (suspended and (event_id, bookie) in suspended):
                continue
            for line in market.lines:
                if line.hdp == hdp and line.label == label:
                    price = line.prices.get(side)
                    if price is not None and (
                        best is None or price > best[0] or (price == best[0] and bookie < best[1])
                    ):
                        best = (price, bookie)
                    break
        slot = state.best[key]
        if best is None:
            del slot[side]
            if not slot:
                del state.best[key]
        else:
            slot[side] = best
            state.held.setdefault(best[1], {}).setdefault(name, set()).add((key, side))

    def _check(self, state: _EventState, event: Event, key: Key) -> None:
        slot = state.best.get(key)
        sides = (
            needed_sides(key[0], self.draws.has_draw(event.sport.slug), frozenset(slot))
            if slot
            else None
        )
        if sides is None or slot is None or sum(1.0 / slot[s][0] for s in sides) >= 1.0:
            state.arbs.pop(key, None)
            return
        legs = tuple((side, slot[side]) for side in sides)
        if len({best[1] for _side, best in legs}) < 2:  # one book alone is no arbitrage
            state.arbs.pop(key, None)
            return
        existing = state.arbs.get(key)
        if existing is not None and existing.legs == legs:
            return
        arb = find_arbitrage(dict(legs))
        if arb is None:
            state.arbs.pop(key, None)
        else:  # encoded later, only if it makes it into an answer
            state.arbs[key] = ArbItem(arb.profit_pct, event.id, key, legs)
