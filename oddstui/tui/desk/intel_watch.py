"""The session's bookmaker intelligence: the feed's price changes into one `IntelEngine`.

At each published change set the hub hands over the (event, bookmaker[, market]) keys whose
prices moved; their lines are read from the book under the feed's lock and each line whose
prices differ from the ones held is observed. The changes are stamped at the flush, so the
desk's lags are never finer than its flush interval (`resolution`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from oddstui.book.oddsbook import OddsBook
from oddstui.book.state import FINISHED_STATUSES
from oddstui.intel.engine import IntelEngine
from oddstui.intel.settings import IntelSettings

LineKey = tuple[float | None, str | None]


class DeskIntel:
    def __init__(self, settings: IntelSettings | None = None, resolution: float = 0.25) -> None:
        self.engine = IntelEngine(settings)
        self.resolution = resolution
        """Seconds between two flushes: the finest lag the desk can tell."""
        self._held: dict[tuple[int, str, str], dict[LineKey, dict[str, float]]] = {}
        """(event, bookmaker, market) -> line -> the prices observed last."""

    def observe(self, book: OddsBook, keys: Iterable[tuple[Any, ...]], now: float) -> None:
        """The lines of these change keys as the book holds them now (under its lock)."""
        engine = self.engine
        for key in keys:
            event_id, bookmaker = key[0], key[1]
            state = book.event(event_id)
            if state is None or state.status in FINISHED_STATUSES:
                self.ended(event_id, now)
                continue
            if state.status == "live":
                engine.in_play.add(event_id)
            else:
                engine.in_play.discard(event_id)
            held_book = state.books.get(bookmaker)
            markets = held_book.markets if held_book is not None else {}
            if len(key) > 2:
                names: Iterable[str] = (key[2],)
            else:
                names = set(markets) | {m for (e, b, m) in self._held if e == event_id
                                        and b == bookmaker}
            for name in names:
                market = markets.get(name)
                lines = {} if market is None else {
                    (line.hdp, line.label): line.prices for line in market.quote.lines
                }
                where = (event_id, bookmaker, name)
                before = self._held.get(where, {})
                for line_key, prices in lines.items():
                    if before.get(line_key) != prices:
                        engine.observe(now, (event_id, name, line_key), bookmaker, prices)
                for line_key in before.keys() - lines.keys():
                    engine.observe(now, (event_id, name, line_key), bookmaker, None)
                if lines:
                    self._held[where] = {k: dict(v) for k, v in lines.items()}
                else:
                    self._held.pop(where, None)

    def ended(self, event_id: int, now: float) -> None:
        """The event finished or left the book: the engine and this watch forget it."""
        self.engine.event_ended(event_id, now)
        for where in [where for where in self._held if where[0] == event_id]:
            del self._held[where]
