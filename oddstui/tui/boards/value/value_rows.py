"""Value bets as the board shows them: EV, fair price and Kelly stake per item.

The fair price is the service's or, when the trader picks a method, one made here from the
feed's book by the desk's fair-price policy (`book.fair_policy`: its ordered sharp books, with
the method the trader picked; "policy" is the policy's own method, so the service's number).
No textual here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from oddstui.api.models import ValueBet
from oddstui.book.fair import METHODS, worst_case_probability
from oddstui.book.fair_policy import FAIR_POLICY, FairPolicy
from oddstui.book.oddsbook import OddsBook
from oddstui.book.value import ev_percent, kelly_stake

#: "service" first, then the local methods of `book.fair`, then the cautious worst case.
FAIR_CHOICES: tuple[str, ...] = ("service", *METHODS, "worst")
SHORT_NAMES = {"multiplicative": "mult", "additive": "add", "power": "power", "shin": "Shin"}


@dataclass(frozen=True, slots=True)
class ValueLine:
    """One value bet, with the numbers the board shows."""

    item: ValueBet
    price: float | None
    """The bookmaker's price on the bet side."""
    fair: float | None
    """The fair price of the bet side (None when the chosen method has no sharp quote)."""
    method: str
    """How `fair` was made: "service" or a `book.fair` method with its sharp bookmaker."""
    ev: float | None
    """EV in percent: the service's, or against the local fair price."""
    kelly: float | None


Quotes = Mapping[str, Mapping[str, float]]
"""bookmaker -> side -> price for one market and line."""


@dataclass(frozen=True, slots=True)
class SharpPrices:
    """The sharp bookmakers' prices of each value bet's market and line, copied out of the
    feed's book in one locked pass (the book's own dicts change under the feed's thread)."""

    by_item: Mapping[str, Quotes]

    def of(self, item: ValueBet) -> Quotes:
        return self.by_item.get(item.id, {})


def read_sharp_prices(book: OddsBook, items: Iterable[ValueBet]) -> SharpPrices:
    """Run under the feed's lock: a private copy of the sharp books' prices for every item."""
    by_item: dict[str, Quotes] = {}
    for item in items:
        quotes = book.quotes(item.event_id, item.market_name, (item.market_hdp, None))
        sharp = {name: quotes[name] for name in FAIR_POLICY.books if name in quotes}
        by_item[item.id] = MappingProxyType(
            {name: MappingProxyType(dict(prices)) for name, prices in sharp.items()}
        )
    return SharpPrices(MappingProxyType(by_item))


def fair_from_sharp(
    quotes: Mapping[str, Mapping[str, float]], sides: list[str], side: str, method: str
) -> tuple[float, str] | None:
    """(fair price of `side`, the sharp bookmaker used) from the first sharp book quoting every
    side; None when none does (a fair line is never invented from half a market)."""
    if side not in sides:
        return None
    index = sides.index(side)
    if method == "worst":
        found = FAIR_POLICY.sharp_prices(quotes, sides)
        if found is None:
            return None
        p = worst_case_probability(found[1], index)
        return (1.0 / p, found[0]) if p > 0 else None
    line = FairPolicy(FAIR_POLICY.books, method).fair_line(quotes, sides)  # type: ignore[arg-type]
    return None if line is None else (line.prices()[index], line.book)


def value_line(
    item: ValueBet,
    method: str,
    bankroll: float,
    fraction: float,
    sharp_quotes: Mapping[str, Mapping[str, float]] | None = None,
    cap: float = 1.0,
) -> ValueLine:
    """`cap`: the largest Kelly stake as a share of the bankroll (the settings' `kelly_cap`)."""
    price = item.bookmaker_prices.get(item.bet_side)
    fair: float | None
    ev: float | None
    if method == "service":
        fair = item.market_prices.get(item.bet_side)
        shown_method, ev = "service", item.expected_value
    else:
        sides = [s for s in item.market_prices]
        found = fair_from_sharp(sharp_quotes or {}, sides, item.bet_side, method)
        if found is None:
            return ValueLine(item, price, None, "no sharp quote", None, None)
        fair, sharp = found
        shown_method = f"{SHORT_NAMES.get(method, method)} {sharp}"
        ev = ev_percent(1.0 / fair, price) if price and price > 1 else None
    kelly = None
    if fair and price and price > 1 and fair > 1:
        kelly = kelly_stake(min(1.0 / fair, 1.0), price, bankroll, fraction, cap)
    return ValueLine(item, price, fair, shown_method, ev, kelly)
