"""A value bet, for any source: a bookmaker's price on a line whose EV against the fair price
(`book.fair_policy`) is at least the floor, when the bookmaker quotes every side the market
needs and a sharp book does too."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from oddstui.book.arbitrage import in_side_order, is_lay, required_sides
from oddstui.book.fair_policy import FAIR_POLICY, FairLine, FairPolicy, Quotes
from oddstui.book.value import MIN_VALUE_EV, ev_percent


@dataclass(frozen=True, slots=True)
class LineValue:
    """A line's value bets at one bookmaker: the sides the market needs, their fair line and
    each side whose EV (percent) passes."""

    sides: tuple[str, ...]
    fair: FairLine
    bets: tuple[tuple[str, float], ...]


@lru_cache(maxsize=4096)
def needed_sides(market: str, has_draw: bool, quoted: frozenset[str]) -> tuple[str, ...] | None:
    """The back sides a whole line of `market` needs, in the market's order, when `quoted`
    holds them all; else None."""
    backs = frozenset(side for side in quoted if not is_lay(side))
    needed = required_sides(market, has_draw, backs)
    if needed is None or not needed <= backs:
        return None
    return in_side_order(needed)


def line_fair_prices(
    market: str, has_draw: bool, sharp_quotes: Quotes, policy: FairPolicy = FAIR_POLICY
) -> tuple[str, dict[str, float]] | None:
    """(the sharp book, each side's fair price) of a line: the first sharp book, in the
    policy's order, quoting every side the market needs; None when none does. The backtest's
    fair prices and the bet log's fair closing price are this."""
    for book in policy.books:
        prices = sharp_quotes.get(book)
        if not prices:
            continue
        sides = needed_sides(market, has_draw, frozenset(prices))
        if sides is None:
            continue
        line = policy.fair_line({book: prices}, sides)
        if line is not None:
            return book, dict(zip(sides, line.prices(), strict=True))
    return None


def line_value(
    market: str,
    has_draw: bool,
    offered: Mapping[str, float],
    sharp_quotes: Quotes,
    min_ev: float = MIN_VALUE_EV,
    policy: FairPolicy = FAIR_POLICY,
) -> LineValue | None:
    """`offered` (a bookmaker's prices on the line) against the line's fair price from
    `sharp_quotes`; None when there is no whole line or no fair line."""
    sides = needed_sides(market, has_draw, frozenset(offered))
    if sides is None:
        return None
    fair = policy.fair_line(sharp_quotes, sides)
    if fair is None:
        return None
    bets = []
    for side, probability in zip(sides, fair.probabilities, strict=True):
        ev = ev_percent(probability, offered[side])
        if ev >= min_ev:
            bets.append((side, ev))
    return LineValue(sides, fair, tuple(bets))
