"""Reading the world: the catalog's lookups, odds records and the price history queries.

Readers never change what the world quotes (far-off events put away cold are rebuilt,
identically, when asked).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from oddstui.service.world.engines.base import Engine
from oddstui.service.world.history import History, LineKey, Tick
from oddstui.service.world.journal import JournalEntry
from oddstui.service.world.markets import MARKETS_BY_SPORT
from oddstui.service.world.model import CANCELLED, LIVE, PENDING, SETTLED, Clock, Event, Market
from oddstui.service.world.state import WorldState
from oddstui.service.world.truth import mix


@dataclass(slots=True)
class WindowPrices:
    """One line's prices for the dropping-odds windows (None: no data that far back)."""

    opening: Tick
    h12: Tick | None
    h24: Tick | None
    h48: Tick | None
    current: Tick
    last_moved_at: float | None


class Reads(WorldState):
    _crests: Any

    def now(self) -> float:
        raise NotImplementedError

    def clock_now(self, event: Event) -> Clock | None:
        """A live event's clock as of `now()`, not of the last step: an answer between steps
        (during the warm-up nothing steps the world, and a loaded loop steps late) would
        otherwise tell a clock seconds old, and nothing on the wire says when it was read."""
        engine = self._engines.get(event.id)
        if event.status != LIVE or engine is None or event.clock is None:
            return event.clock
        return engine.clock_ahead(self.now() - self._sim) or event.clock

    def markets_wire(self, event: Event, bookie: str) -> list[dict[str, Any]]:
        """Exactly `bookmakers[bookie]` of the event's odds record ([] when it has none)."""
        book = self.bookmakers.get(bookie)
        if book is None or bookie not in event.bookmakers:
            return []
        key = (event.id, bookie)
        if event.status in (SETTLED, CANCELLED):
            return self._quoter.closing_wire(event, self._truth(event), book)
        if key in self._suspended:
            return []
        cached = self._wire.get(key)
        if cached is not None:
            return cached
        self._ensure_quotes(event)
        wire = [m.to_wire(book.precision) for m in event.quotes.get(bookie, {}).values()]
        self._wire[key] = wire
        return wire

    def book_markets(self, event: Event, bookie: str) -> list[Market]:
        """The bookie's current Market objects on a pending or live event, in wire order (the
        same list `markets_wire` serializes; [] when suspended). Prefer this to reading
        `event.quotes`: far-off events keep their quotes put away until asked."""
        if bookie not in event.bookmakers or event.status not in (PENDING, LIVE):
            return []
        if (event.id, bookie) in self._suspended:
            return []
        self._ensure_quotes(event)
        return list(event.quotes.get(bookie, {}).values())

    def deep_link(self, event: Event, bookie: str) -> str:
        book = self.bookmakers[bookie]
        if not book.deep_links:
            return "N/A"
        return f"{book.site}/event/{event.id}?ref=oddstui"

    def bookmaker_event_id(self, event: Event, bookie: str) -> str:
        return str(100_000_000 + mix(self.seed, event.id, self.bookmakers[bookie].id) % 900_000_000)

    def odds_record(self, event: Event, bookmakers: Iterable[str]) -> dict[str, Any]:
        """The wire odds record restricted to these books (closing prices once settled)."""
        record = event.header_wire()
        books: dict[str, Any] = {}
        urls: dict[str, str] = {}
        ids: dict[str, str] = {}
        quoted = set(event.bookmakers)
        for name in bookmakers:
            if name not in quoted or name in books:
                continue
            markets = self.markets_wire(event, name)
            if not markets:
                continue
            books[name] = markets
            urls[name] = self.deep_link(event, name)
            ids[name] = self.bookmaker_event_id(event, name)
            if name == "Bet365":
                ids["Bet365_4"] = f"{ids[name]}-bot365"
        record["bookmakers"] = books
        record["bookmakerIds"] = ids
        record["urls"] = urls
        return record

    # Names other modules know these by.
    def bookie_url(self, event: Event, bookie: str) -> str:
        return self.deep_link(event, bookie)

    def bookie_fixture_id(self, event: Event, bookie: str) -> str:
        return self.bookmaker_event_id(event, bookie)

    def movements(
        self, event_id: int, bookie: str, market: str, hdp: float | None = None,
        label: str | None = None,
    ) -> list[Tick] | None:
        """Every tick of one line, opening first; None when the line does not exist. Without
        `hdp`, the market's first line (its main line for single-line books) is used."""
        found = self._line(event_id, bookie, market, hdp, label)
        if found is None:
            return None
        key, current, precision = found
        meta = self._meta[event_id]
        # A line the world quoted when it first quoted an event already in play (the world
        # booting mid-match) opened days before like any other: only a line that appeared
        # later in play opened then (issue 32: the opening was a price of minutes before).
        first_seen = max(self.events[event_id].start, meta.quoted_at or 0.0)
        return self.history.sequence(event_id, key, meta.open_ts, first_seen, current,
                                     precision)

    def price_at(
        self, event_id: int, bookie: str, market: str, hdp: float | None, label: str | None,
        ts: float,
    ) -> Tick | None:
        ticks = self.movements(event_id, bookie, market, hdp, label)
        return History.price_at(ticks, ts) if ticks else None

    def line_window(
        self, event_id: int, bookie: str, market: str, hdp: float | None = None,
        label: str | None = None, now: float | None = None,
    ) -> WindowPrices | None:
        """Opening, 12h, 24h and 48h-ago and current prices of one line, in one call."""
        ticks = self.movements(event_id, bookie, market, hdp, label)
        if not ticks:
            return None
        at = self.now() if now is None else now
        moved = None
        for i in range(len(ticks) - 1, 0, -1):
            if ticks[i][1] != ticks[i - 1][1]:
                moved = ticks[i][0]
                break
        return WindowPrices(
            ticks[0], History.price_at(ticks, at - 12 * 3600), History.price_at(ticks, at - 86400),
            History.price_at(ticks, at - 2 * 86400), ticks[-1], moved,
        )

    def changed_since(
        self, ts: float, bookmakers: Iterable[str] | None = None
    ) -> list[JournalEntry]:
        """The latest journal entry per (event, bookie) at simulated time >= ts."""
        entries = self.journal.changed_since(ts)
        if bookmakers is None:
            return entries
        wanted = set(bookmakers)
        return [e for e in entries if e.bookie in wanted]

    def _line(
        self, event_id: int, bookie: str, market: str, hdp: float | None, label: str | None
    ) -> tuple[LineKey, Tick, int] | None:
        event = self.events.get(event_id)
        book = self.bookmakers.get(bookie)
        if event is None or book is None or bookie not in event.bookmakers:
            return None
        if event.status in (SETTLED, CANCELLED):
            for m in self.markets_wire(event, bookie):
                if m["name"] != market:
                    continue
                for entry in m["odds"]:
                    if _matches(entry.get("hdp"), entry.get("label"), hdp, label):
                        prices = {k: float(v) for k, v in entry.items()
                                  if k not in ("hdp", "label", "max")}
                        ts = event.start - 60.0
                        return (bookie, market, entry.get("hdp"), entry.get("label")), \
                            (ts, prices), book.precision
            return None
        self._ensure_quotes(event)
        quote = event.quotes.get(bookie, {}).get(market)
        if quote is None:
            return None
        for line in quote.lines:
            if _matches(line.hdp, line.label, hdp, label):
                return (bookie, market, line.hdp, line.label), (quote.updated_at, line.prices), \
                    book.precision
        return None

    def crest_png(self, participant_id: int) -> bytes | None:
        participant = self.participants.get(participant_id)
        if participant is None or not participant.has_crest:
            return None
        return self._crests.get(participant_id)

    def live_events(self) -> list[Event]:
        return list(self._live.values())

    def quoted_events(self) -> list[Event]:
        """Pending and live events whose quotes exist (the ones value bets, arbitrage and
        dropping odds should scan)."""
        return [e for e in self.events.values()
                if e.status in (PENDING, LIVE) and e.id in self._quoter.truths]

    def market_types(self, sport: str | None = None) -> list[str]:
        if sport is not None:
            return [m.name for m in MARKETS_BY_SPORT[sport]]
        return sorted({m.name for ms in MARKETS_BY_SPORT.values() for m in ms})

    def engine(self, event_id: int) -> Engine | None:
        return self._engines.get(event_id)

    def open_ts(self, event_id: int) -> float:
        """When the event's quotes opened."""
        return self._meta[event_id].open_ts


def _matches(line_hdp: float | None, line_label: str | None, hdp: float | None,
             label: str | None) -> bool:
    if hdp is not None and (line_hdp is None or abs(line_hdp - hdp) > 1e-9):
        return False
    return label is None or line_label == label
