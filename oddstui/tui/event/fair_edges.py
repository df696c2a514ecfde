"""The fair price of each side of a line, from a sharp bookmaker's prices with the margin removed
(`book.fair`, multiplicative), and a price's edge against it. Pure code.

The sharp books are the Value board's: the first that quotes every back side of the line makes
the fair line; none does, no fair line (never one made from half a market).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from oddstui.book.exchange import is_lay
from oddstui.book.fair import fair_prices

#: The books whose prices, margin removed, are the fair line: the Value board's own list
#: (`boards/value/value_rows.py`; the event package may not import the boards).
SHARP_BOOKS = ("Pinnacle", "SingBet", "Betfair Exchange")


def fair_line(
    quotes: Mapping[str, Mapping[str, float]], sides: Sequence[str]
) -> tuple[tuple[float | None, ...], str | None]:
    """(fair price per side, in the order of `sides`, None for a lay side; the sharp book used)."""
    backs = [side for side in sides if not is_lay(side)]
    if len(backs) < 2:
        return tuple(None for _ in sides), None
    for sharp in SHARP_BOOKS:
        prices = quotes.get(sharp)
        if prices is None or any(prices.get(side) is None for side in backs):
            continue
        try:
            fairs = fair_prices([float(prices[side]) for side in backs])
            fair = dict(zip(backs, fairs, strict=True))
        except ValueError:
            continue
        return tuple(fair.get(side) for side in sides), sharp
    return tuple(None for _ in sides), None


def edge(price: float, fair: float) -> float:
    """A price's edge over the fair price, as a fraction: 2.10 against a fair 2.00 is +0.05."""
    return price / fair - 1.0


def edge_text(value: float) -> str:
    """`+3.2%`, `-4.1%`, `+0.0%`."""
    return f"{value * 100:+.1f}%"
