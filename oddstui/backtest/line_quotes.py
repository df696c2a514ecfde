"""Every bookmaker's prices on each line, held ready: the backtest's odds book.

The desk's `OddsBook` keeps prices by bookmaker and market, as a desk reads them: a market at a
time. A backtest reads a line across bookmakers after each change (best prices, value, alert
rules), which `OddsBook.quotes` answers by visiting every bookmaker of the event. Here each
line's quotes are kept as the messages move them: (event, market, line) -> bookmaker -> prices,
the very mapping `OddsBook.quotes` returns. Odds messages apply with the book's own rules
(merge by market name, `complete_markets`, `deleted` and `no_markets`); a test applies the same
messages to an `OddsBook` and checks the two agree after every one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from oddstui.api.messages import OddsMessage
from oddstui.api.models import MarketQuote
from oddstui.book.state import LineKey

MarketLine = tuple[int, str, LineKey]
"""(event id, market, line)."""
Prices = dict[str, float]
"""side -> price."""
LineChanges = dict[MarketLine, tuple[Prices | None, Prices | None]]
"""One bookmaker's prices on each line it changed: before and after (None: no line)."""

_NONE: Mapping[str, Prices] = {}


class LineQuotes:
    def __init__(self) -> None:
        self.complete_markets = False
        """Each odds message lists all its bookmaker's markets: a market left out is gone."""
        self._markets: dict[tuple[int, str], dict[str, MarketQuote]] = {}
        """(event, bookmaker) -> market name -> the quote last applied."""
        self._lines: dict[MarketLine, dict[str, Prices]] = {}
        self._bookmakers: dict[int, set[str]] = {}
        """event -> the bookmakers it has held markets for."""

    def quotes(self, key: MarketLine) -> Mapping[str, Prices]:
        """bookmaker -> prices on one line; read only (it is the store's own)."""
        return self._lines.get(key, _NONE)

    def lines_of(self, event_ids: Iterable[int]) -> set[MarketLine]:
        """Every line any bookmaker quotes on these events."""
        found: set[MarketLine] = set()
        for event_id in event_ids:
            for bookmaker in self._bookmakers.get(event_id, ()):
                for name, quote in self._markets.get((event_id, bookmaker), {}).items():
                    found.update((event_id, name, (line.hdp, line.label)) for line in quote.lines)
        return found

    def apply_odds(self, message: OddsMessage) -> LineChanges:
        """Apply one odds message; what it changed of its bookmaker's prices, line by line."""
        event_id = message.event_id
        bookmaker = message.bookie
        where = (event_id, bookmaker)
        changed: LineChanges = {}
        held = self._markets.get(where)
        if message.kind == "deleted" or message.kind == "no_markets":
            if held:
                for name, quote in held.items():
                    _diff_lines(event_id, name, quote, None, changed)
                held.clear()
                self._store(bookmaker, changed)
            return changed
        if held is None:
            held = self._markets[where] = {}
            self._bookmakers.setdefault(event_id, set()).add(bookmaker)
        for quote in message.markets:
            name = quote.name
            old = held.get(name)
            held[name] = quote
            if old is None or old.lines != quote.lines:  # lines compare in C
                _diff_lines(event_id, name, old, quote, changed)
        if self.complete_markets and len(held) > len(message.markets):
            listed = {quote.name for quote in message.markets}
            for name in [name for name in held if name not in listed]:
                _diff_lines(event_id, name, held.pop(name), None, changed)
        if changed:
            self._store(bookmaker, changed)
        return changed

    def replace_event(
        self, event_id: int, bookmakers: Mapping[str, Iterable[MarketQuote]]
    ) -> set[MarketLine]:
        """The event's prices are now exactly these (a snapshot); the lines that were or are."""
        before = self.lines_of((event_id,))
        for bookmaker in self._bookmakers.pop(event_id, ()):
            del self._markets[(event_id, bookmaker)]
        for key in before:
            self._lines.pop(key, None)
        for bookmaker, quotes in bookmakers.items():
            held = self._markets[(event_id, bookmaker)] = {}
            self._bookmakers.setdefault(event_id, set()).add(bookmaker)
            changed: LineChanges = {}
            for quote in quotes:
                held[quote.name] = quote
                _diff_lines(event_id, quote.name, None, quote, changed)
            self._store(bookmaker, changed)
        return before | self.lines_of((event_id,))

    def _store(self, bookmaker: str, changed: LineChanges) -> None:
        lines = self._lines
        for key, (_, prices) in changed.items():
            if prices:
                quotes = lines.get(key)
                if quotes is None:
                    lines[key] = {bookmaker: prices}
                else:
                    quotes[bookmaker] = prices
            else:  # a line with no prices is no quote (as `OddsBook.quotes` has it)
                quotes = lines.get(key)
                if quotes is not None and quotes.pop(bookmaker, None) is not None and not quotes:
                    del lines[key]


def _diff_lines(
    event_id: int,
    name: str,
    old: MarketQuote | None,
    new: MarketQuote | None,
    changed: LineChanges,
) -> None:
    """The lines whose prices differ between two quotes of one market, into `changed`."""
    old_lines = () if old is None else old.lines
    new_lines = () if new is None else new.lines
    if len(old_lines) == len(new_lines):  # the usual case: the same lines, some prices moved
        found = []
        for before, line in zip(old_lines, new_lines, strict=True):
            if before.hdp != line.hdp or before.label != line.label:
                break
            if before.prices != line.prices:
                found.append(((event_id, name, (line.hdp, line.label)), before.prices, line.prices))
        else:
            for where, was, now in found:
                changed[where] = (was, now)
            return
    by_key = {(line.hdp, line.label): line for line in old_lines}
    for line in new_lines:
        key = (line.hdp, line.label)
        before_line = by_key.pop(key, None)
        if before_line is None:
            changed[(event_id, name, key)] = (None, line.prices)
        elif before_line.prices != line.prices:
            changed[(event_id, name, key)] = (before_line.prices, line.prices)
    for key, gone in by_key.items():
        changed[(event_id, name, key)] = (gone.prices, None)
