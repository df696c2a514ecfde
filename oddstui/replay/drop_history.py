"""Price histories a replay keeps for /dropping-odds: the sharp books' lines of the seed's
dropping markets, from the records as they are applied.

A drop is measured from the opening price, and a recording holds a bookmaker's opening only
when its first quote of the event is in the recording (a `created` message). A bookmaker the
recording first saw quoting an event in a snapshot or an `updated` message opened before it:
its lines of that event are not kept, so a replay lists only drops it can measure.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from oddstui.book.dropping import Tick
from oddstui.book.fair_policy import SHARP_BOOKS
from oddstui.derived.dropping import BET_SIDES
from oddstui.seed_markets import SEED_MARKETS

MAX_TICKS = 1_000  # per line; past it the oldest but the first go (the opening stays)
LineKey = tuple[str, float | None, str | None]  # market, hdp, label
Prices = dict[str, float] | None  # side -> price; None while suspended
_MARKETS = frozenset(SEED_MARKETS)


class BookHistory:
    """One bookmaker's lines of one event."""

    __slots__ = ("lines", "updated_at")

    def __init__(self) -> None:
        self.lines: dict[LineKey, list[tuple[float, Prices]]] = {}
        self.updated_at: dict[str, float] = {}  # market -> when it was last quoted

    def ticks(self, line: LineKey, side: str) -> list[Tick]:
        return [
            (at, None if prices is None else prices.get(side)) for at, prices in self.lines[line]
        ]


class DropHistory:
    def __init__(self, books: Iterable[str] = SHARP_BOOKS) -> None:
        self.books = tuple(books)  # in order of preference as the reference book
        self._events: dict[int, dict[str, BookHistory]] = {}
        self._opened_before: set[tuple[int, str]] = set()  # quoted before the recording began

    def quoted(self, at: float, event_id: int, bookie: str, markets: Any, created: bool) -> None:
        """A bookmaker's markets of the event, as a message or a snapshot carried them."""
        if bookie not in self.books or not isinstance(markets, list):
            return
        book = self._events.get(event_id, {}).get(bookie)
        if book is None:
            if not created or (event_id, bookie) in self._opened_before:
                self._opened_before.add((event_id, bookie))
                return
            book = self._events.setdefault(event_id, {})[bookie] = BookHistory()
        for market in markets:
            if not isinstance(market, dict) or market.get("name") not in _MARKETS:
                continue
            name = market["name"]
            book.updated_at[name] = at
            for entry in market.get("odds") or ():
                if isinstance(entry, dict):
                    _tick(book, line_key(name, entry), at, _prices(entry))

    def withdrawn(self, at: float, event_id: int, bookie: str) -> None:
        """`deleted` or `no_markets`: every line of the bookmaker is suspended."""
        book = self._events.get(event_id, {}).get(bookie)
        if book is not None:
            for line in book.lines:
                _tick(book, line, at, None)

    def forget(self, event_id: int) -> None:
        """The event ended: nothing of it is measured any more."""
        for bookie in self._events.pop(event_id, {}):
            self._opened_before.add((event_id, bookie))

    def reference(self, event_id: int) -> tuple[str, BookHistory] | None:
        """The event's reference book: the first sharp book whose history the replay holds."""
        books = self._events.get(event_id, {})
        for name in self.books:
            if name in books:
                return name, books[name]
        return None


def line_key(market: str, entry: dict[str, Any]) -> LineKey:
    """The line an odds entry quotes: its market, hdp and label."""
    return (market, _number(entry.get("hdp")), _text(entry.get("label")))


def _tick(book: BookHistory, line: LineKey, at: float, prices: Prices) -> None:
    ticks = book.lines.setdefault(line, [])
    if ticks and ticks[-1][1] == prices:
        return
    ticks.append((at, prices))
    if len(ticks) > MAX_TICKS:
        del ticks[1]


def _prices(entry: dict[str, Any]) -> dict[str, float]:
    found = {}
    for side in BET_SIDES:
        try:
            found[side] = float(entry[side])
        except (KeyError, TypeError, ValueError):
            continue
    return found


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None
