"""Exchange prices (see MATHS.md): lay sides kept apart from back sides, and back prices net of
the exchange's commission on winnings, so an exchange's margin and a best price compare fairly
with a bookmaker's.

A quote's sides are back prices (`home`, `over`, ...) unless named `lay<Side>` (`layHome`);
adding a lay price into a margin counts both ends of the same bet and gives nonsense (~50 %).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from oddstui.book.arbitrage import (
    Arbitrage,
    ArbLeg,
    best_prices,
    commission_adjusted,
    find_arbitrage,
    is_lay,
)
from oddstui.book.formats import exact_price
from oddstui.book.probability import margin

#: Exchanges whose names do not say so.
EXCHANGE_NAMES = frozenset({"Betdaq", "Matchbook", "Smarkets"})


def back_sides(sides: Iterable[str]) -> list[str]:
    return [side for side in sides if not is_lay(side)]


def is_exchange(bookmaker: str, sides: Iterable[str] = ()) -> bool:
    """An exchange by name, or any book that quotes a lay price."""
    return "Exchange" in bookmaker or bookmaker in EXCHANGE_NAMES or any(map(is_lay, sides))


def net_back(price: float, commission: float) -> float:
    """What a back price pays after commission on winnings: `1 + (d - 1)(1 - c)`."""
    return commission_adjusted(price, commission) if commission else price


def quoted_back(paid_price: float, commission: float) -> float:
    """The price as the exchange quoted it, from what it pays net of `commission` (the inverse
    of `net_back`), without the float noise the arithmetic leaves (2.3170000000000002)."""
    if not commission or commission >= 1.0:
        return paid_price
    return exact_price(1.0 + (paid_price - 1.0) / (1.0 - commission))


def commission_rate(bookmaker: str, commission: float, sides: Iterable[str] = ()) -> float:
    """The commission on `bookmaker`'s winnings: the trader's `commission` (the
    `exchange_commission` setting) on an exchange, none on a bookmaker. The one commission
    rule: the desk, the ticket, the batch commands and the backtest all count a back price at
    `paid(bookmaker, price, commission)`."""
    return commission if commission and is_exchange(bookmaker, sides) else 0.0


def paid(bookmaker: str, price: float, commission: float) -> float:
    """What `bookmaker`'s back price pays per unit staked, net of commission on an exchange."""
    return net_back(price, commission_rate(bookmaker, commission))


def paid_best_prices(
    quotes: Mapping[str, Mapping[str, float]], sides: Sequence[str], commission: float
) -> dict[str, tuple[float, str]]:
    """`best_prices` of the back `sides` with each price counted at what it pays: side ->
    (paid price, bookmaker)."""
    paid_quotes = {}
    for bookmaker, prices in quotes.items():
        rate = commission_rate(bookmaker, commission, prices)
        paid_quotes[bookmaker] = {
            side: net_back(prices[side], rate) for side in sides if side in prices
        }
    return best_prices(paid_quotes, sides)


def paid_arbitrage(legs: Iterable[ArbLeg], commission: float) -> Arbitrage | None:
    """The arbitrage of legs quoted at their bookmakers' own prices, counted at what each pays
    net of commission; None when it is none once commission is paid, or one bookmaker's line."""
    return find_arbitrage(
        {leg.side: (paid(leg.bookmaker, leg.price, commission), leg.bookmaker) for leg in legs}
    )


def back_margin(
    prices: Mapping[str, float], sides: Sequence[str], commission: float = 0.0
) -> float | None:
    """The hold over the back sides among `sides` (net of `commission`), when every one of them
    is quoted and there are at least two; else None."""
    backs = back_sides(sides)
    if len(backs) < 2 or any(side not in prices for side in backs):
        return None
    return margin([net_back(prices[side], commission) for side in backs])


def best_of_books(
    quotes: Mapping[str, Mapping[str, float]], sides: Iterable[str], commission: float = 0.0
) -> dict[str, float]:
    """Per side, the best price for the trader: the highest back price as it pays (an exchange's
    net of `commission`), the lowest lay price."""
    best: dict[str, float] = {}
    for bookmaker, prices in quotes.items():
        rate = commission_rate(bookmaker, commission, prices)
        for side in sides:
            price = prices.get(side)
            if price is None:
                continue
            if is_lay(side):
                if side not in best or price < best[side]:
                    best[side] = price
                continue
            paid = net_back(price, rate)
            if side not in best or paid > best[side]:
                best[side] = paid
    return best
