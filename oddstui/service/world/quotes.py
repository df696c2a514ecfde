"""Each bookmaker's markets on each event: opening them, requoting them, closing prices.

Quotes are made lazily: an event gets its quotes the first time anything needs them (it goes
live, comes within a day of kickoff, or a reader asks), deterministically from the seed, as if
they had been there all along. Events more than three days out carry only the core markets;
the rest open when they come closer.
"""

from __future__ import annotations

import copy
import math
import random
from collections import OrderedDict
from typing import Any

from oddstui.service.world import markets as M
from oddstui.service.world.history import History, LineKey
from oddstui.service.world.markets import MARKETS_BY_SPORT, MarketDef
from oddstui.service.world.model import LIVE, Bookmaker, Event, Line, Market, Scores
from oddstui.service.world.pricing import (
    EDGE_CAP,
    MIN_PRICE,
    book_quotes_market,
    mispricing_epoch,
    price_lines,
)
from oddstui.service.world.sports import SPORT_BY_SLUG
from oddstui.service.world.truth import EventTruth, Line3, LiveView, mix, true_lines, unit

FULL_MARKETS_WITHIN = 3 * 86400.0
CLOSING_TIER = 1  # closing prices keep the markets up to this tier
CLOSING_CACHE = 400  # events
KEPT_VERSIONS = 64  # past states of an event's true prices kept for books behind its latest
#: A price this far over the true price is never offered: a book takes such a market down
#: (world/deadlines.py) and does not put it back on prices from before the move.
WITHDRAW_EDGE = EDGE_CAP
#: Lines each side of the true centre a standing line is looked up among (lines move in play).
CHECK_ALT = 6


def _same(old: list[Line], new: list[Line]) -> bool:
    if len(old) != len(new):
        return False
    for a, b in zip(old, new, strict=True):
        if a.hdp != b.hdp or a.label != b.label or a.prices != b.prices:
            return False
    return True


def _copied_lines(market: Market, parent: Bookmaker, sister: Bookmaker) -> list[Line]:
    """A white label's copy of its parent's lines: prices times (1 + parent margin) / (1 + its
    margin), at its own precision, without the parent's lay prices."""
    scale = (1.0 + parent.margin) / (1.0 + sister.margin)
    factor = 10**sister.precision
    return [
        Line({side: max(MIN_PRICE, math.floor(price * scale * factor) / factor)
              for side, price in line.prices.items() if not side.startswith("lay")},
             line.hdp, line.label, sister.max_stake if line.max is not None else None)
        for line in market.lines
    ]


class Quoter:
    def __init__(self, seed: int, bookmakers: dict[str, Bookmaker], history: History) -> None:
        self.seed = seed
        self.books = bookmakers
        self.history = history
        self.truths: dict[int, EventTruth] = {}
        self.views: dict[int, LiveView] = {}  # live events; pending ones use a pre-match view
        # event -> (book, market) -> the truth version at which the market was withdrawn
        self.withdrawn: dict[int, dict[tuple[str, str], int]] = {}
        self._lines: dict[tuple[int, str, int, int], list[Line3]] = {}
        self.kept: dict[int, dict[int, tuple[LiveView | None, dict[str, float]]]] = {}
        """event -> truth version -> what the true prices were made of then (the live view,
        the walk), so a book that has seen only up to a version is priced as of it."""
        self._closing: OrderedDict[tuple[int, str], list[dict[str, Any]]] = OrderedDict()
        self._defs = {slug: {m.name: m for m in ms} for slug, ms in MARKETS_BY_SPORT.items()}
        self._offered: dict[int, dict[tuple[str, int], list[MarketDef]]] = {}
        self._rank = {slug: {m.name: i for i, m in enumerate(ms)}
                      for slug, ms in MARKETS_BY_SPORT.items()}

    # -- truth and views ------------------------------------------------------------------
    def truth_for(self, event: Event, z: float, players: list[str]) -> EventTruth:
        truth = self.truths.get(event.id)
        if truth is None:
            salt = mix(self.seed, event.id, 3)
            shares = [(name, 0.6 + 0.8 * unit(salt, i)) for i, name in enumerate(players)]
            truth = self.truths[event.id] = EventTruth(z, shares, salt)
        return truth

    def view(self, event: Event) -> LiveView:
        view = self.views.get(event.id)
        if view is None:
            return LiveView(SPORT_BY_SLUG[event.sport.slug], event.scores)
        return view

    def clear_step_cache(self) -> None:
        self._lines.clear()

    def lines_for(self, event: Event, mdef: MarketDef, alt: int) -> list[Line3]:
        truth = self.truths[event.id]
        key = (event.id, mdef.name, alt, truth.version)
        lines = self._lines.get(key)
        if lines is None:
            lines = self._lines[key] = true_lines(mdef, self.view(event), truth, alt)
        return lines

    def keep(self, event: Event) -> None:
        """Keep the event's true prices as of their version now (call after each bump)."""
        truth = self.truths[event.id]
        view = self.views.get(event.id)
        if view is not None:
            view = LiveView(view.spec, view.scores, view.progress, view.in_overtime, view.live,
                            view.set_index)  # the view is updated in place; its scores are not
        kept = self.kept.setdefault(event.id, {})
        kept[truth.version] = (view, dict(truth.walk))
        if len(kept) > KEPT_VERSIONS:
            del kept[min(kept)]

    def overpriced(self, event: Event, mdef: MarketDef, lines: list[Line]) -> bool:
        """Whether any of these lines would offer more than WITHDRAW_EDGE over the event's
        true prices now, or stands on a line the true prices have moved away from."""
        true = {(hdp, label): probs for hdp, label, probs in self.lines_for(event, mdef, CHECK_ALT)}
        bound = 1.0 + WITHDRAW_EDGE
        sides = M.SIDES[mdef.kind]
        for line in lines:
            probs = true.get((line.hdp, line.label))
            if probs is None:
                return True
            prices = line.prices
            if any(prices[side] * p > bound for side, p in zip(sides, probs, strict=False)):
                return True
        return False

    def lines_as_of(self, event: Event, mdef: MarketDef, alt: int,
                    version: int) -> list[Line3] | None:
        """The market's true lines as they were at `version` (None: not kept, or the event has
        gone in play since)."""
        truth = self.truths[event.id]
        if version == truth.version:
            return self.lines_for(event, mdef, alt)
        then = self.kept.get(event.id, {}).get(version)
        if then is None or (then[0] is None) != (event.id not in self.views):
            return None
        key = (event.id, mdef.name, alt, version)
        lines = self._lines.get(key)
        if lines is None:
            past = copy.copy(truth)
            past.walk = then[1]
            view = then[0] if then[0] is not None else self.view(event)
            lines = self._lines[key] = true_lines(mdef, view, past, alt)
        return lines

    def defs(self, event: Event) -> dict[str, MarketDef]:
        return self._defs[event.sport.slug]

    def offered(self, event: Event, book: Bookmaker, tier_cap: int) -> list[MarketDef]:
        key = (book.name, tier_cap)
        cache = self._offered.setdefault(event.id, {})
        found = cache.get(key)
        if found is None:
            found = cache[key] = [m for m in MARKETS_BY_SPORT[event.sport.slug]
                                  if m.tier <= tier_cap and book_quotes_market(book, m, event.id)]
        return found

    # -- opening --------------------------------------------------------------------------
    def open_event(
        self, event: Event, truth: EventTruth, now: float, open_ts: float, books: list[str]
    ) -> None:
        """Give these books of the event their opening markets (no jitter: deterministic)."""
        truth.tier_cap = 3 if event.start - now < FULL_MARKETS_WITHIN or event.status == LIVE \
            else 0
        # Parents first: a white label opens as a copy of its parent's opening (and quotes
        # nothing without it: there is nothing to copy).
        for name in sorted(books, key=lambda name: self.books[name].sister_of is not None):
            book = self.books[name]
            if book.sister_of is not None:
                source = event.quotes.get(book.sister_of) if book.sister_of in books else None
                event.quotes[name] = {
                    market.name: Market(market.name, market.updated_at,
                                        _copied_lines(market, self.books[book.sister_of], book),
                                        market.version)
                    for market in (source or {}).values()}
                continue
            shift = 1200.0 * unit(truth.salt, book.id)
            ts = max(open_ts, now - shift) if open_ts < now else now
            markets: dict[str, Market] = {}
            for mdef in self.offered(event, book, truth.tier_cap):
                lines = price_lines(book, mdef, self.lines_for(event, mdef, book.alt_lines),
                                    event.id, None, live=event.status == LIVE,
                                    epoch=mispricing_epoch(now))
                if lines:
                    markets[mdef.name] = Market(mdef.name, ts, lines, truth.version)
            event.quotes[name] = markets
        for name in books:  # in the books' own order again
            event.quotes[name] = event.quotes.pop(name)

    # -- requoting --------------------------------------------------------------------------
    def dirty(self, event: Event, book: Bookmaker, limit: int,
              hidden: set[str] | frozenset[str] = frozenset()) -> list[MarketDef]:
        """Up to `limit` of the book's markets behind the true prices, leaving out the `hidden`
        ones (the book has not seen their change yet)."""
        truth = self.truths[event.id]
        quotes = event.quotes.get(book.name, {})
        out = []
        for mdef in self.offered(event, book, truth.tier_cap):
            changed = truth.changed_at.get(mdef.name, 0)
            if mdef.name in hidden:
                continue
            market = quotes.get(mdef.name)
            if market is not None:
                synced = market.version
            else:
                synced = self.withdrawn.get(event.id, {}).get((book.name, mdef.name), -1)
            if changed > synced:
                out.append(mdef)
                if len(out) >= limit:
                    break
        return out

    def requote(
        self, event: Event, book: Bookmaker, mdefs: list[MarketDef], now: float,
        rng: random.Random, as_of: dict[str, int] | None = None,
    ) -> bool:
        """Reprice these markets of this book; True when anything visible changed. `as_of`:
        market -> the truth version the book has seen of it (it has not seen a later change
        yet): priced as of that version, and still behind the later one."""
        truth = self.truths[event.id]
        quotes = event.quotes.setdefault(book.name, {})
        changed = False
        for mdef in mdefs:
            version = truth.version
            true = None
            if as_of and mdef.name in as_of:
                true = self.lines_as_of(event, mdef, book.alt_lines, as_of[mdef.name])
                if true is not None:
                    version = as_of[mdef.name]
            if true is None:
                true = self.lines_for(event, mdef, book.alt_lines)
            lines = price_lines(book, mdef, true, event.id, rng, live=event.status == LIVE,
                                epoch=mispricing_epoch(now))
            if version < truth.version and self.overpriced(event, mdef, lines):
                lines = []  # priced before a move it has not seen: it stays down until it has
            old = quotes.get(mdef.name)
            if not lines:
                self.withdrawn.setdefault(event.id, {})[(book.name, mdef.name)] = version
                if old is not None:
                    del quotes[mdef.name]
                    changed = True
                continue
            if old is not None and _same(old.lines, lines):
                old.version = version
                continue
            self._record(event.id, book.name, mdef.name, old, lines, now)
            if old is None:
                quotes[mdef.name] = Market(mdef.name, now, lines, version)
            else:
                old.lines = lines
                old.updated_at = now
                old.version = version
            changed = True
        if changed:
            # Keep the wire order stable: the sport's market order.
            rank = self._rank[event.sport.slug]
            ranks = [rank[name] for name in quotes]
            if ranks != sorted(ranks):
                event.quotes[book.name] = dict(sorted(quotes.items(), key=lambda kv: rank[kv[0]]))
        return changed

    def copy_from(self, event: Event, parent: Bookmaker, sister: Bookmaker, now: float,
                  snapshot: dict[str, Market] | None = None) -> bool:
        """A white label's requote: its parent's markets as they stood at the change it copies
        (`snapshot`; None: as they stand), at its own margin (prices times (1 + parent margin) /
        (1 + its margin), at its own precision). True when anything visible changed."""
        source = snapshot if snapshot is not None else event.quotes.get(parent.name) or {}
        quotes = event.quotes.setdefault(sister.name, {})
        changed = False
        for name in [name for name in quotes if name not in source]:
            del quotes[name]
            changed = True
        truth = self.truths.get(event.id)
        defs = self.defs(event)
        for name, market in source.items():
            lines = _copied_lines(market, parent, sister)
            if truth is not None and market.version < truth.version \
                    and self.overpriced(event, defs[name], lines):
                if quotes.pop(name, None) is not None:  # the copy of a price the move ran past
                    changed = True
                continue
            old = quotes.get(name)
            if old is not None and _same(old.lines, lines):
                continue
            self._record(event.id, sister.name, name, old, lines, now)
            if old is None:
                quotes[name] = Market(name, now, lines, market.version)
            else:
                old.lines, old.updated_at, old.version = lines, now, market.version
            changed = True
        order = [name for name in source if name in quotes]
        if changed and list(quotes) != order:
            event.quotes[sister.name] = {name: quotes[name] for name in order}
        return changed

    def _record(self, event_id: int, book: str, market: str, old: Market | None,
                lines: list[Line], now: float) -> None:
        before: dict[tuple[float | None, str | None], Line] = {}
        if old is not None:
            before = {(line.hdp, line.label): line for line in old.lines}
        for line in lines:
            prev = before.get((line.hdp, line.label))
            if prev is not None and prev.prices == line.prices:
                continue
            key: LineKey = (book, market, line.hdp, line.label)
            prior = (old.updated_at, prev.prices) if prev is not None and old else None
            self.history.record(event_id, key, prior, (now, line.prices))

    # -- closing prices ---------------------------------------------------------------------
    def closing_wire(self, event: Event, truth: EventTruth, book: Bookmaker) -> list[dict]:
        """The book's markets at kickoff, for settled and cancelled events (cached)."""
        key = (event.id, book.name)
        cached = self._closing.get(key)
        if cached is not None:
            self._closing.move_to_end(key)
            return cached
        spec = SPORT_BY_SLUG[event.sport.slug]
        view = LiveView(spec, Scores())
        ts = event.start - 60.0 - 600.0 * unit(truth.salt, book.id)
        wire = []
        for mdef in MARKETS_BY_SPORT[event.sport.slug]:
            if mdef.tier > CLOSING_TIER or not book_quotes_market(book, mdef, event.id):
                continue
            lines = price_lines(book, mdef, true_lines(mdef, view, truth, book.alt_lines),
                                event.id, None)
            if lines:
                wire.append(Market(mdef.name, ts, lines).to_wire(book.precision))
        self._closing[key] = wire
        if len(self._closing) > CLOSING_CACHE * 30:
            self._closing.popitem(last=False)
        return wire

    def drop_event(self, event_id: int) -> None:
        self.views.pop(event_id, None)
        self.kept.pop(event_id, None)
        self.withdrawn.pop(event_id, None)
        self._offered.pop(event_id, None)


def is_moneyline(mdef: MarketDef) -> bool:
    return mdef.kind in (M.ML3, M.ML2)
