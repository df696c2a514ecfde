"""Every arbitrage a recording held: when it appeared, when it went, its best profit and legs.

An arbitrage is one set of legs (side and bookmaker per side) on one event, market and line:
when the best books change, the old set ends and a new one begins. Only lines a record touched
are looked at again (`book.arbitrage`, the desk's own routine).
"""

from __future__ import annotations

from dataclasses import dataclass

from oddstui.backtest.line_quotes import MarketLine
from oddstui.book.arbitrage import Arbitrage
from oddstui.book.state import LineKey

LegsKey = tuple[tuple[str, str], ...]
"""((side, bookmaker), ...) in the legs' order."""


@dataclass(slots=True)
class ArbitrageSeen:
    event_id: int
    market: str
    line: LineKey
    legs: tuple[tuple[str, float, str], ...]
    """(side, price, bookmaker) when the profit was best."""
    first_seen: float
    last_seen: float
    """When it went (or the recording's end, when `open_at_end`)."""
    best_profit: float
    """Percent, (1/S - 1) · 100 on the total stake."""
    open_at_end: bool = True

    @property
    def legs_key(self) -> LegsKey:
        return tuple((side, book) for side, _, book in self.legs)

    @property
    def duration(self) -> float:
        return self.last_seen - self.first_seen


def legs_key(arb: Arbitrage) -> LegsKey:
    return tuple((leg.side, leg.bookmaker) for leg in arb.legs)


class ArbitrageTracker:
    def __init__(self) -> None:
        self.seen: list[ArbitrageSeen] = []
        self._open: dict[MarketLine, ArbitrageSeen] = {}

    def observe(self, key: MarketLine, arb: Arbitrage | None, now: float) -> None:
        """The line's arbitrage now (None: none), as `book.arbitrage` finds it."""
        current = self._open.get(key)
        if arb is None:
            if current is not None:
                self._close(key, current, now)
            return
        profit = arb.profit_pct
        if current is not None and current.legs_key != legs_key(arb):
            self._close(key, current, now)
            current = None
        if current is None:
            event_id, market, line = key
            current = ArbitrageSeen(event_id, market, line, _legs(arb), now, now, profit)
            self._open[key] = current
            self.seen.append(current)
        elif profit > current.best_profit:
            current.best_profit = profit
            current.legs = _legs(arb)

    def finish(self, end: float) -> None:
        for arb in self._open.values():
            arb.last_seen = end
        self._open.clear()

    def _close(self, key: MarketLine, arb: ArbitrageSeen, now: float) -> None:
        arb.last_seen = now
        arb.open_at_end = False
        del self._open[key]


def _legs(arb: Arbitrage) -> tuple[tuple[str, float, str], ...]:
    return tuple((leg.side, leg.price, leg.bookmaker) for leg in arb.legs)
