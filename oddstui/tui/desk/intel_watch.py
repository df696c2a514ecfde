"""The session's bookmaker intelligence: the feed's price changes into one `IntelEngine`.

At each published change set the hub hands over the (event, bookmaker[, market]) keys whose
prices moved; their lines are copied from the book under the feed's lock, and after it is
released each line whose prices differ from the ones held is observed. The changes are stamped
at the flush, so the desk's lags are never finer than its flush interval (`resolution`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from oddstui.book.oddsbook import OddsBook
from oddstui.book.state import FINISHED_STATUSES
from oddstui.intel.engine import IntelEngine
from oddstui.intel.settings import IntelSettings

LineKey = tuple[float | None, str | None]


@dataclass(slots=True)
class ReadLines:
    """One change key's lines as the book held them, copied under its lock."""

    event_id: int
    bookmaker: str
    live: bool | None
    """In play or not; None: the event finished or left the book."""
    names: tuple[str, ...]
    whole_book: bool
    """The key named no market: the bookmaker's every market, held ones it dropped too."""
    lines: dict[str, dict[LineKey, dict[str, float]]]


class DeskIntel:
    def __init__(self, settings: IntelSettings | None = None, resolution: float = 0.25) -> None:
        self.engine = IntelEngine(settings)
        self.resolution = resolution
        """Seconds between two flushes: the finest lag the desk can tell."""
        self._held: dict[tuple[int, str, str], dict[LineKey, dict[str, float]]] = {}
        """(event, bookmaker, market) -> line -> the prices observed last."""

    def observe(self, book: OddsBook, keys: Iterable[tuple[Any, ...]], now: float) -> None:
        """The lines of these change keys as the book holds them now (the caller holds its
        lock; the hub reads under it and observes after, `read` then `apply`)."""
        self.apply(self.read(book, keys), now)

    def read(self, book: OddsBook, keys: Iterable[tuple[Any, ...]]) -> list[ReadLines]:
        """Under the feed's lock: copies of the lines of these change keys, nothing more (the
        engine's maths runs after the lock is released: the socket reader waits on it)."""
        reads = []
        for key in keys:
            event_id, bookmaker = key[0], key[1]
            state = book.event(event_id)
            if state is None or state.status in FINISHED_STATUSES:
                reads.append(ReadLines(event_id, bookmaker, None, (), True, {}))
                continue
            held_book = state.books.get(bookmaker)
            markets = held_book.markets if held_book is not None else {}
            names = (key[2],) if len(key) > 2 else tuple(markets)
            lines = {
                name: {(line.hdp, line.label): dict(line.prices) for line in market.quote.lines}
                for name in names if (market := markets.get(name)) is not None
            }
            reads.append(ReadLines(event_id, bookmaker, state.status == "live", names,
                                   len(key) <= 2, lines))
        return reads

    def apply(self, reads: Iterable[ReadLines], now: float) -> None:
        """Observe each line read whose prices differ from the ones held."""
        engine = self.engine
        for read in reads:
            event_id, bookmaker = read.event_id, read.bookmaker
            if read.live is None:
                self.ended(event_id, now)
                continue
            if read.live:
                engine.in_play.add(event_id)
            else:
                engine.in_play.discard(event_id)
            names: Iterable[str] = read.names
            if read.whole_book:
                names = set(names) | {m for (e, b, m) in self._held if e == event_id
                                      and b == bookmaker}
            for name in names:
                lines = read.lines.get(name, {})
                where = (event_id, bookmaker, name)
                before = self._held.get(where, {})
                for line_key, prices in lines.items():
                    if before.get(line_key) != prices:
                        engine.observe(now, (event_id, name, line_key), bookmaker, prices)
                for line_key in before.keys() - lines.keys():
                    engine.observe(now, (event_id, name, line_key), bookmaker, None)
                if lines:
                    self._held[where] = lines
                else:
                    self._held.pop(where, None)

    def ended(self, event_id: int, now: float) -> None:
        """The event finished or left the book: the engine and this watch forget it."""
        self.engine.event_ended(event_id, now)
        for where in [where for where in self._held if where[0] == event_id]:
            del self._held[where]
