"""Arbitrage bets and value bets at the replay clock.

A recording holds prices, not the lists the service derived from them, so a replay makes them
again from the replayed prices with the desk's maths (`book/`), in the service's item shapes:
the desk's boards then show what the service would have listed at that moment. An arbitrage is
the best back price of each side across the asked bookmakers summing under 1 on an exhaustive
market; a value bet is a price whose EV against the fair price by the desk's one policy
(`book.fair_policy`) is at least `MIN_VALUE_EV` percent.

Each event's quotes are parsed once per change of the event (the state's `versions`), and the
items of an event are kept until it changes: a desk polling the boards costs only the events
that moved since its last poll.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from oddstui.api.errors import MalformedRecord
from oddstui.api.models.odds import parse_market
from oddstui.book.arbitrage import Arbitrage, market_arbitrage, sport_has_draw
from oddstui.book.fair_policy import FAIR_POLICY, FairPolicy
from oddstui.book.value import MIN_VALUE_EV
from oddstui.derived.items import arbitrage_body, leg_body, value_body
from oddstui.derived.listed import is_listed
from oddstui.derived.value import line_value
from oddstui.recording.manifest import iso
from oddstui.replay.state import ReplayState
from oddstui.server.item_text import NO_URL

KEPT_ASKS = 16  # bookmaker sets (arbitrage) and bookmakers (value) kept, least recent dropped

LineId = tuple[str, float | None, str | None]  # (market, hdp, label)
Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Quote:
    """One bookmaker's prices of one line, with their text as sent and the market's stamp."""

    prices: dict[str, float]
    texts: dict[str, str]
    updated_at: str | None
    max: float | None


EventQuotes = dict[LineId, dict[str, Quote]]  # line -> bookmaker -> its quote


class ReplayDerived:
    def __init__(
        self,
        state: ReplayState,
        sharps: tuple[str, ...] = FAIR_POLICY.books,
        min_ev: float = MIN_VALUE_EV,
    ) -> None:
        self.state = state
        self.sharps = sharps
        self.policy = FairPolicy(sharps, FAIR_POLICY.method)
        self.min_ev = min_ev
        self._quotes: dict[int, tuple[int, EventQuotes]] = {}
        self._arbs: OrderedDict[frozenset[str], dict[int, tuple[int, list[Json]]]] = OrderedDict()
        self._values: OrderedDict[str, dict[int, tuple[int, list[Json]]]] = OrderedDict()

    def arbitrage_bets(self, bookmakers: list[str], limit: int, details: bool) -> list[Json]:
        """GET /arbitrage-bets: the best profit first."""
        wanted = frozenset(bookmakers)
        kept = _kept_for(self._arbs, wanted)
        items = [
            item
            for event in self.open_events()
            for item in self._per_event(kept, event, lambda e: self._arbitrages(e, wanted))
        ]
        items.sort(key=lambda item: (-item["profitMargin"], item["id"]))
        return [self._shown(item, details) for item in items[:limit]]

    def value_bets(
        self, bookmaker: str, sport: str | None, league: str | None, details: bool
    ) -> list[Json]:
        """GET /value-bets of one bookmaker: the largest EV first."""
        kept = _kept_for(self._values, bookmaker)
        items = []
        for event in self.open_events():
            if sport is not None and _slug(event.get("sport")) != sport:
                continue
            if league is not None and _slug(event.get("league")) != league:
                continue
            items.extend(self._per_event(kept, event, lambda e: self._value(e, bookmaker)))
        items.sort(key=lambda item: (-item["expectedValue"], item["id"]))
        return [self._shown(item, details) for item in items]

    # -- per event -----------------------------------------------------------------------------
    def open_events(self) -> list[Json]:
        """The events whose prices can be taken; what was kept of the others is let go (a day's
        recording ends thousands of matches)."""
        found = {
            event_id: event
            for event_id, event in self.state.events.items()
            if is_listed(event.get("status")) and self.state.books.get(event_id)
        }
        kept: list[dict[int, Any]] = [self._quotes, *self._arbs.values(), *self._values.values()]
        for held in kept:
            for event_id in [key for key in held if key not in found]:
                del held[event_id]
        return list(found.values())

    def _per_event(
        self,
        kept: dict[int, tuple[int, list[Json]]],
        event: Json,
        make: Callable[[Json], list[Json]],
    ) -> list[Json]:
        """`make(event)`, kept until the event changes."""
        event_id = event["id"]
        version = self.state.versions.get(event_id, 0)
        held = kept.get(event_id)
        if held is None or held[0] != version:
            held = kept[event_id] = (version, make(event))
        return held[1]

    def _quotes_of(self, event_id: int) -> EventQuotes:
        version = self.state.versions.get(event_id, 0)
        held = self._quotes.get(event_id)
        if held is None or held[0] != version:
            held = self._quotes[event_id] = (version, event_quotes(self.state.books[event_id]))
        return held[1]

    def _arbitrages(self, event: Json, wanted: frozenset[str]) -> list[Json]:
        event_id = event["id"]
        has_draw = sport_has_draw(_slug(event.get("sport")))
        found = []
        for line, quotes in self._quotes_of(event_id).items():
            chosen = {book: quote.prices for book, quote in quotes.items() if book in wanted}
            if len(chosen) < 2:
                continue
            arb = market_arbitrage(line[0], chosen, has_draw)
            if arb is not None:
                found.append(self._arbitrage_item(event, line, arb, quotes))
        return found

    def _value(self, event: Json, bookmaker: str) -> list[Json]:
        if bookmaker in self.sharps:
            return []
        has_draw = sport_has_draw(_slug(event.get("sport")))
        found = []
        for line, quotes in self._quotes_of(event["id"]).items():
            quote = quotes.get(bookmaker)
            if quote is None:
                continue
            sharp = {book: quotes[book].prices for book in self.sharps if book in quotes}
            value = line_value(line[0], has_draw, quote.prices, sharp, self.min_ev, self.policy)
            if value is None:
                continue
            fair_at = quotes[value.fair.book].updated_at
            for bet in value.bets:
                quoted_at = quote.updated_at or self._now()
                found.append(
                    value_body(
                        event["id"],
                        line,
                        bookmaker,
                        bet,
                        (value.sides, value.fair),
                        (quote.texts, quote.max, quoted_at),
                        self._href(event["id"], bookmaker),
                        max(quoted_at, fair_at or quoted_at),
                    )
                )
        return found

    # -- items ---------------------------------------------------------------------------------
    def _arbitrage_item(
        self, event: Json, line: LineId, arb: Arbitrage, quotes: Mapping[str, Quote]
    ) -> Json:
        event_id = event["id"]
        legs, stamps = [], []
        for leg in arb.legs:
            quote = quotes[leg.bookmaker]
            stamp = quote.updated_at or self._now()
            stamps.append(stamp)
            fixture = str(self.state.book_ids.get(event_id, {}).get(leg.bookmaker, event_id))
            links = (fixture, self._href(event_id, leg.bookmaker))
            odds = quote.texts[leg.side]
            legs.append(leg_body(line, leg.side, leg.bookmaker, _names(event), odds, links, stamp))
        return arbitrage_body(event_id, line, arb, legs, max(stamps))

    def _shown(self, item: Json, details: bool) -> Json:
        if not details:
            return item
        event = self.state.events[item["eventId"]]
        home, away = _names(event)
        return {
            **item,
            "event": {
                "home": home,
                "away": away,
                "date": str(event.get("date", "")),
                "sport": _name(event.get("sport")),
                "league": _name(event.get("league")),
            },
        }

    def _href(self, event_id: int, bookmaker: str) -> str:
        url = self.state.urls.get(event_id, {}).get(bookmaker)
        return url if isinstance(url, str) and url else NO_URL

    def _now(self) -> str:
        return iso(self.state.time)


def event_quotes(books: Mapping[str, Any]) -> EventQuotes:
    """Every line each bookmaker quotes, from the markets as the service sent them; a market
    that does not parse is left out, as the desk's feed client leaves it."""
    found: EventQuotes = {}
    for bookmaker, markets in books.items():
        if not isinstance(markets, list):
            continue
        for raw in markets:
            try:
                market = parse_market(raw)
            except MalformedRecord:
                continue
            stamp = raw.get("updatedAt")
            updated_at = stamp if isinstance(stamp, str) else None
            for entry, line in zip(raw.get("odds") or (), market.lines, strict=False):
                if not line.prices:
                    continue
                texts = {side: _text(entry.get(side), price) for side, price in line.prices.items()}
                quote = Quote(line.prices, texts, updated_at, line.max)
                found.setdefault((market.name, line.hdp, line.label), {})[bookmaker] = quote
    return found


def _kept_for(
    kept: OrderedDict[Any, dict[int, tuple[int, list[Json]]]], ask: object
) -> dict[int, tuple[int, list[Json]]]:
    held = kept.get(ask)
    if held is None:
        held = kept[ask] = {}
        while len(kept) > KEPT_ASKS:
            kept.popitem(last=False)
    else:
        kept.move_to_end(ask)
    return held


def _text(raw: Any, price: float) -> str:
    return raw.strip() if isinstance(raw, str) else f"{price:g}"


def _names(event: Json) -> tuple[str, str]:
    return str(event.get("home", "")), str(event.get("away", ""))


def _name(value: Any) -> str:
    return str(value.get("name", "")) if isinstance(value, dict) else str(value or "")


def _slug(value: Any) -> str:
    return str(value.get("slug", "")) if isinstance(value, dict) else ""
