"""Everything the backtest keeps about one line, in one object.

A message changes a few lines of one bookmaker; for each, the backtest moves its prices, its
best prices, and the value bets and arbitrage open on it. Kept in separate dictionaries keyed by
(event, market, line), that cost a hash of the key and a lookup in each. One `LineState` per
line, found once (and then found by position while a market keeps its lines), costs neither.
"""

from __future__ import annotations

from oddstui.backtest.findings import ArbitrageSeen, ValueBetSeen

MarketLine = tuple[int, str, tuple[float | None, str | None]]
"""(event id, market, line): the line's key."""
Prices = dict[str, float]
"""side -> price."""
Quotes = dict[str, Prices]
"""bookmaker -> its prices on the line."""
Best = dict[str, tuple[float, str]]
"""side -> (price, bookmaker)."""


class LineState:
    __slots__ = ("key", "quotes", "quoted", "best", "fair", "last_fair", "bets", "arbitrage")

    def __init__(self, key: MarketLine) -> None:
        self.key = key
        self.quotes: dict[str, Prices] = {}
        """bookmaker -> its prices on the line (a bookmaker with none is left out)."""
        self.quoted: dict[str, float] = {}
        """bookmaker -> when a message last moved its prices on the line (not from snapshots)."""
        self.best: Best = {}
        """The best back price of each side (`best_index`)."""
        self.fair: dict[str, float] | None = None
        """The sharp book's fair prices now; None when it quotes no whole line (`value_bets`)."""
        self.last_fair: dict[str, float] | None = None
        """The last fair prices it had, kept when the sharp book stops quoting."""
        self.bets: dict[tuple[str, str], ValueBetSeen] | None = None
        """(bookmaker, side) -> the value bet open on it."""
        self.arbitrage: ArbitrageSeen | None = None
        """The arbitrage open on the line (`arbitrages`)."""
