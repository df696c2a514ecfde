"""The best back price per side of each line, kept up to date one bookmaker's change at a time.

A message changes one bookmaker's prices, so the line's other quotes need not be read again:
a side's best moves only when that bookmaker beats it or was the one holding it and got worse;
only then is the side read again from the line's quotes, with the desk's own `best_prices` (its
tie rule: the bookmaker whose name sorts first). Lay prices are no sides to back: left out.

The best prices are the quoted ones (alert rules compare those); an arbitrage counts each price
at what it pays, an exchange's net of commission (`book.exchange.paid`), as the desk does.
"""

from __future__ import annotations

from oddstui.backtest.line_state import Best, LineState, Prices, Quotes
from oddstui.book.arbitrage import (
    Arbitrage,
    best_prices,
    find_arbitrage,
    in_side_order,
    is_lay,
    required_sides,
)
from oddstui.book.exchange import commission_rate, paid_best_prices


def rebuild(state: LineState) -> Best:
    """Read the line's best prices afresh from its quotes (after a snapshot)."""
    quotes = state.quotes
    sides = {side for prices in quotes.values() for side in prices if not is_lay(side)}
    best = state.best = best_prices(quotes, sorted(sides))
    return best


def update(state: LineState, bookmaker: str, old: Prices | None, new: Prices | None) -> Best | None:
    """`bookmaker`'s prices on the line went from `old` to `new` (None: it has no line), and
    its quotes already say so. Returns the line's best prices, or None when they did not change
    (most messages move prices that are not the best)."""
    best = state.best
    changed = False
    if new:
        for side, price in new.items():
            if old is not None and old.get(side) == price:
                continue  # this side did not move
            held = best.get(side)
            if held is not None and price < held[0] and held[1] != bookmaker:
                continue  # worse than the best, held by another: the usual case
            if side[0] == "l" and is_lay(side):
                continue
            changed = _side(state, side, price, bookmaker) or changed
    if old:
        for side in old:
            if (new is None or side not in new) and not is_lay(side):
                changed = _side(state, side, None, bookmaker) or changed
    return best if changed else None


def _side(state: LineState, side: str, price: float | None, bookmaker: str) -> bool:
    """One side of `bookmaker` moved to `price` (None: gone); True when its best changed."""
    best = state.best
    held = best.get(side)
    if held is not None and held[1] == bookmaker:
        if price is not None and price >= held[0]:
            best[side] = (price, bookmaker)
            return price != held[0]
        # The holder got worse or left: who is best now?
        found = best_prices(state.quotes, (side,)).get(side)
        if found is None:
            del best[side]
        else:
            best[side] = found
        return found != held
    if price is not None and (
        held is None or price > held[0] or (price == held[0] and bookmaker < held[1])
    ):
        best[side] = (price, bookmaker)
        return True
    return False


class ArbitrageCheck:
    """The desk's arbitrage of a line (`market_arbitrage`), from the line's best prices, and
    only when the best prices of the market's required sides sum below 1 (most lines, most of
    the time, do not).

    `market_arbitrage` over every bookmaker's quotes finds the required sides from the sides
    quoted, takes the best price of each, in the market's order, and asks `find_arbitrage`; the
    best prices already hold all of that, so they go to `find_arbitrage` directly.

    With a `commission`, a line whose best price of a side is an exchange's is read again from
    its `quotes` at what each price pays: the exchange's net price may fall below another
    book's. A quoted price above every other one pays no less than theirs, so a line whose
    best prices are all bookmakers' needs no second look, nor one whose quoted prices make no
    arbitrage."""

    def __init__(self, commission: float = 0.0) -> None:
        self.commission = commission
        self._required: dict[tuple[str, bool, frozenset[str]], tuple[str, ...] | None] = {}
        self._rates: dict[str, float] = {}

    def __call__(
        self, market: str, best: Best, has_draw: bool, quotes: Quotes | None = None
    ) -> Arbitrage | None:
        if len(best) < 2:
            return None
        key = (market, has_draw, frozenset(best))
        try:
            required = self._required[key]
        except KeyError:
            sides = required_sides(market, has_draw, best)
            required = self._required[key] = None if sides is None else in_side_order(sides)
        if required is None:
            return None
        total = 0.0
        exchange = False
        for side in required:
            held = best.get(side)
            if held is None:
                return None
            total += 1.0 / held[0]
            exchange = exchange or (self.commission > 0.0 and self._rate(held[1], quotes) > 0.0)
        if total >= 1.0:
            return None
        if exchange and quotes is not None:
            return find_arbitrage(paid_best_prices(quotes, required, self.commission))
        return find_arbitrage({side: best[side] for side in required})

    def _rate(self, bookmaker: str, quotes: Quotes | None) -> float:
        rate = self._rates.get(bookmaker)
        if rate is None:
            prices = () if quotes is None else quotes.get(bookmaker, ())
            rate = self._rates[bookmaker] = commission_rate(bookmaker, self.commission, prices)
        return rate
