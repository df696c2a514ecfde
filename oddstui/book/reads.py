"""The reading side of ``OddsBook``: events, bookmakers, markets, lines, best prices,
arbitrages, movements and ages, as the screens ask for them. Readers hold the feed's lock."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from oddstui.book.arbitrage import Arbitrage, best_prices, market_arbitrage, sport_has_draw
from oddstui.book.state import (
    EventState,
    LineKey,
    MarketState,
    PriceMove,
    finished,
)

ChangeKey = tuple[int] | tuple[int, str] | tuple[int, str, str]
"""What changed: an event, one of its bookmakers, or one bookmaker's market."""


class BookReads:
    """What ``OddsBook`` answers about its events (it owns ``_events`` and writes them)."""

    _events: dict[int, EventState]

    def __contains__(self, event_id: object) -> bool:
        return event_id in self._events

    def __len__(self) -> int:
        return len(self._events)

    def event_ids(self) -> Iterator[int]:
        return iter(self._events)

    def event(self, event_id: int) -> EventState | None:
        """Everything known about an event (read only), or None."""
        return self._events.get(event_id)

    def missing_headers(self) -> list[int]:
        """Events known only from the feed, whose names and dates REST must still supply."""
        return [eid for eid, state in self._events.items() if state.header is None]

    def bookmakers(self, event_id: int) -> list[str]:
        """Bookmakers quoting at least one market for the event, in name order."""
        state = self._events.get(event_id)
        if state is None:
            return []
        return sorted(name for name, book in state.books.items() if book.markets)

    def market(self, event_id: int, bookmaker: str, market: str) -> MarketState | None:
        state = self._events.get(event_id)
        book = None if state is None else state.books.get(bookmaker)
        return None if book is None else book.markets.get(market)

    def market_names(self, event_id: int) -> list[str]:
        """Markets quoted by any bookmaker for the event, in name order."""
        state = self._events.get(event_id)
        if state is None:
            return []
        return sorted({name for book in state.books.values() for name in book.markets})

    def lines(self, event_id: int, market: str) -> list[LineKey]:
        """The lines of a market across bookmakers, by label then handicap."""
        keys: set[LineKey] = set()
        for quote in self._market_states(event_id, market):
            keys.update(quote.line_keys())
        return sorted(keys, key=_line_order)

    def price(
        self, event_id: int, bookmaker: str, market: str, line: LineKey, side: str
    ) -> float | None:
        found = self.market(event_id, bookmaker, market)
        return None if found is None else found.price(line, side)

    def quotes(self, event_id: int, market: str, line: LineKey) -> dict[str, dict[str, float]]:
        """bookmaker -> side -> price for one market and line (the input of the arb helpers)."""
        state = self._events.get(event_id)
        if state is None:
            return {}
        out: dict[str, dict[str, float]] = {}
        for name, book in state.books.items():
            found = book.markets.get(market)
            entry = None if found is None else found.line(line)
            if entry is not None and entry.prices:
                out[name] = entry.prices
        return out

    def best(
        self, event_id: int, market: str, line: LineKey, sides: Iterable[str] | None = None
    ) -> dict[str, tuple[float, str]]:
        """The best price per side across bookmakers: side -> (price, bookmaker)."""
        quotes = self.quotes(event_id, market, line)
        if sides is None:
            sides = sorted({side for prices in quotes.values() for side in prices})
        return best_prices(quotes, sides)

    def arbitrage(self, event_id: int, market: str, line: LineKey) -> Arbitrage | None:
        """An arbitrage on one market and line, only over an exhaustive set of sides; none
        once the match has ended (a finished match's last prices are not tradable)."""
        state = self._events.get(event_id)
        if state is None or finished(state.status):
            return None
        has_draw = sport_has_draw(state.header.sport.slug) if state.header else True
        return market_arbitrage(market, self.quotes(event_id, market, line), has_draw)

    def arbitrages(self, event_id: int, market: str) -> list[tuple[LineKey, Arbitrage]]:
        """Every line of a market that is an arbitrage right now."""
        found = []
        for line in self.lines(event_id, market):
            arb = self.arbitrage(event_id, market, line)
            if arb is not None:
                found.append((line, arb))
        return found

    def arbitrages_in(
        self, changes: Iterable[ChangeKey]
    ) -> list[tuple[int, str, LineKey, Arbitrage]]:
        """Client-side detection: every arbitrage in the markets named by these change keys.

        Pass what ``take_changes`` returned; each (event, market) is checked once, on every line.
        """
        seen: set[tuple[int, str]] = set()
        found = []
        for key in changes:
            if len(key) != 3:
                continue
            event_market = (key[0], key[2])
            if event_market in seen:
                continue
            seen.add(event_market)
            for line, arb in self.arbitrages(*event_market):
                found.append((event_market[0], event_market[1], line, arb))
        return found

    def movement(
        self, event_id: int, bookmaker: str, market: str, line: LineKey, side: str
    ) -> PriceMove | None:
        """The last change of a price (its previous value, direction and when), or None."""
        found = self.market(event_id, bookmaker, market)
        return None if found is None else found.move(line, side)

    def recent_move(
        self,
        event_id: int,
        bookmaker: str,
        market: str,
        line: LineKey,
        side: str,
        now: float,
        within: float = 3.0,
    ) -> int:
        """+1 or -1 when the price went up or down in the last ``within`` seconds, else 0."""
        move = self.movement(event_id, bookmaker, market, line, side)
        if move is None or now - move.since > within:
            return 0
        return move.direction

    def price_age(
        self, event_id: int, bookmaker: str, market: str, line: LineKey, side: str, now: float
    ) -> float | None:
        """Seconds since the price last changed value (by the book's clock), or None."""
        found = self.market(event_id, bookmaker, market)
        if found is None or found.price(line, side) is None:
            return None
        return now - found.changed_at(line, side)

    def _market_states(self, event_id: int, market: str) -> Iterator[MarketState]:
        state = self._events.get(event_id)
        if state is None:
            return
        for book in state.books.values():
            found = book.markets.get(market)
            if found is not None:
                yield found


def _line_order(key: LineKey) -> tuple[str, float]:
    hdp, label = key
    return (label or "", -1e18 if hdp is None else hdp)
