"""Arbitrage over complementary sides of one market and line (see MATHS.md).

Profit is defined once: **profit % = (1/S - 1) · 100 on the total stake**, where ``S`` is the
sum of the implied probabilities of the best prices. Some tools quote ``1 - S`` instead.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from oddstui.book._validate import check_positive

PROFIT_DEFINITION = "profit % = (1/S - 1) × 100 on the total stake"

# Markets whose sides overlap: never an arbitrage set.
_NOT_ARB_MARKETS = ("double chance",)
_THREE_WAY_MARKETS = ("european handicap", "3-way", "3 way", "1x2")
_TWO_WAY_PAIRS = (
    frozenset({"over", "under"}),
    frozenset({"yes", "no"}),
    frozenset({"odd", "even"}),
)


# Sports whose match result can be a draw, so a two-way ML there is not exhaustive. Combat
# sports are included because a draw settles two-way prices as losers at many books.
SPORTS_WITH_DRAW = frozenset(
    {
        "football",
        "ice-hockey",
        "handball",
        "rugby",
        "cricket",
        "futsal",
        "water-polo",
        "bandy",
        "gaelic-football",
        "aussie-rules",
        "floorball",
        "boxing",
        "mixed-martial-arts",
        "american-football",
    }
)


def sport_has_draw(slug: str) -> bool:
    """True when the sport's result can be a draw (unknown sports count as having one)."""
    return slug in SPORTS_WITH_DRAW or slug not in _SPORTS_WITHOUT_DRAW


_SPORTS_WITHOUT_DRAW = frozenset(
    {
        "basketball",
        "tennis",
        "baseball",
        "esports",
        "darts",
        "volleyball",
        "snooker",
        "table-tennis",
        "beach-volleyball",
        "squash",
        "lacrosse",
        "curling",
        "padel",
        "badminton",
        "athletics",
        "cross-country",
        "golf",
        "cycling",
        # Level after extra time, a shoot-out or penalties decide: there is always a winner.
        "beach-soccer",
        "beach-handball",
    }
)


def profit_pct(prices: Iterable[float]) -> float:
    """(1/S - 1) · 100 on the total stake, ``S`` the sum of ``1/price`` (``PROFIT_DEFINITION``):
    the profit of a set of legs at these prices, an arbitrage or not (negative: a loss)."""
    return (1.0 / sum(1.0 / price for price in prices) - 1.0) * 100.0


@dataclass(frozen=True, slots=True)
class ArbLeg:
    """One side of an arbitrage: the best price for that side and who offers it."""

    side: str
    price: float
    bookmaker: str


@dataclass(frozen=True, slots=True)
class Arbitrage:
    """A set of best prices whose implied probabilities sum below 1."""

    legs: tuple[ArbLeg, ...]
    """One leg per side, in the order the sides were given."""
    implied_probability: float
    """``S``, the sum of ``1/price`` over the legs (below 1)."""

    @property
    def profit_pct(self) -> float:
        """(1/S - 1) · 100 on the total stake; see ``PROFIT_DEFINITION``."""
        return (1.0 / self.implied_probability - 1.0) * 100.0

    def stakes(self, total: float) -> list[float]:
        """Stakes that return the same amount whichever leg wins."""
        check_positive(total, "total stake")
        s = self.implied_probability
        return [total / leg.price / s for leg in self.legs]

    def potential_return(self, total: float) -> float:
        """What every leg returns on equal-return stakes: ``T/S``."""
        return check_positive(total, "total stake") / self.implied_probability

    def profit(self, total: float) -> float:
        """Guaranteed profit on equal-return stakes: ``T/S - T``."""
        return self.potential_return(total) - total


def best_prices(
    quotes: Mapping[str, Mapping[str, float]], sides: Iterable[str]
) -> dict[str, tuple[float, str]]:
    """The best price per side across bookmakers: side -> (price, bookmaker).

    ``quotes`` maps bookmaker -> side -> price. Unusable prices (missing, not above 1.0, not
    finite) are skipped; a side nobody quotes is left out. Ties go to the bookmaker whose name
    sorts first, so the service and the client agree.
    """
    best: dict[str, tuple[float, str]] = {}
    for side in sides:
        held: tuple[float, str] | None = None
        for bookmaker, book in quotes.items():
            price = book.get(side)
            if price is None:
                continue
            # A float is judged in place (NaN fails both tests); anything else by `_usable`.
            if not (1.0 < price < math.inf if type(price) is float else _usable(price)):
                continue
            if held is None or price > held[0] or (price == held[0] and bookmaker < held[1]):
                held = (float(price), bookmaker)
        if held is not None:
            best[side] = held
    return best


def required_sides(
    market_name: str, sport_has_draw: bool, sides_seen: Iterable[str] = ()
) -> frozenset[str] | None:
    """The sides that make ``market_name`` exhaustive, or None when it is never an arb set.

    - ML (and period ML): home, away, plus draw when the sport has a draw or anyone quotes one;
      a two-way price in a sport with a draw is not exhaustive.
    - Spread / handicap: home and away on the same line (the draw is covered by the line).
    - Draw No Bet: home and away (a draw is refunded).
    - European handicap / 3-way: home, draw and away.
    - Totals, team totals, props: over and under; yes/no and odd/even markets likewise.
    - Double Chance: sides overlap, never an arbitrage set. Unknown markets: None.
    """
    name = market_name.strip().lower()
    seen = {side.lower() for side in sides_seen}
    if any(marker in name for marker in _NOT_ARB_MARKETS):
        return None
    if any(marker in name for marker in _THREE_WAY_MARKETS):
        return frozenset({"home", "draw", "away"})
    if name == "ml" or name.startswith("ml ") or "moneyline" in name or "winner" in name:
        with_draw = sport_has_draw or "draw" in seen
        return frozenset({"home", "draw", "away"} if with_draw else {"home", "away"})
    if "draw no bet" in name or "spread" in name or "handicap" in name:
        return frozenset({"home", "away"})
    if "total" in name or "props" in name or "over/under" in name:
        return frozenset({"over", "under"})
    for pair in _TWO_WAY_PAIRS:
        if seen and seen <= pair:
            return pair
    return None


def exhaustive_sides(market_name: str, sides_present: Iterable[str], sport_has_draw: bool) -> bool:
    """True when ``sides_present`` covers every outcome of the market exactly once."""
    present = {side.lower() for side in sides_present}
    required = required_sides(market_name, sport_has_draw, present)
    return required is not None and required <= present


def find_arbitrage(best: Mapping[str, tuple[float, str]]) -> Arbitrage | None:
    """An ``Arbitrage`` when the best prices (side -> (price, bookmaker)) sum below 1, else None.

    This only checks the sum; the caller checks that the sides are exhaustive
    (``exhaustive_sides``) or uses ``market_arbitrage``. Legs all at one bookmaker are no
    arbitrage: that book's own line sums under 100 %, a misprice it voids or corrects.
    """
    if len(best) < 2:
        return None
    legs = tuple(ArbLeg(side, float(price), bookmaker) for side, (price, bookmaker) in best.items())
    if not all(_usable(leg.price) for leg in legs) or one_bookmaker(legs):
        return None
    s = sum(1.0 / leg.price for leg in legs)
    if s >= 1.0:
        return None
    return Arbitrage(legs=legs, implied_probability=s)


def one_bookmaker(legs: Iterable[Any]) -> bool:
    """True when every leg (anything with a `bookmaker`) is at the same bookmaker."""
    return len({leg.bookmaker for leg in legs}) < 2


def is_lay(side: str) -> bool:
    """`layHome`, `layDraw`, ...: a price to lay at, not to back."""
    return side.startswith("lay") and side[3:4].isupper()


def market_arbitrage(
    market_name: str,
    quotes: Mapping[str, Mapping[str, float]],
    sport_has_draw: bool,
) -> Arbitrage | None:
    """Best back prices across bookmakers for one market and line, checked for exhaustiveness
    (an exchange's lay prices are not sides to back: they are left out)."""
    seen = {side.lower() for book in quotes.values() for side in book if not is_lay(side)}
    required = required_sides(market_name, sport_has_draw, seen)
    if required is None:
        return None
    best = best_prices(quotes, in_side_order(required))
    if set(best) != required:
        return None
    return find_arbitrage(best)


def in_side_order(sides: Iterable[str]) -> tuple[str, ...]:
    """Sides as a market lists them: home, draw, away, over, under, yes, no, odd, even."""
    return tuple(sorted(sides, key=lambda side: _SIDE_ORDER.get(side, 99)))


def commission_adjusted(decimal: float, commission: float) -> float:
    """Effective odds after exchange commission on winnings: ``1 + (d - 1)(1 - c)``."""
    if not 0.0 <= commission < 1.0:
        raise ValueError(f"commission must be at least 0 and below 1, got {commission!r}")
    if not _usable(decimal):
        raise ValueError(f"price {decimal!r} must be above 1.0 (decimal odds)")
    return 1.0 + (decimal - 1.0) * (1.0 - commission)


def _usable(price: float) -> bool:
    try:
        return math.isfinite(price) and price > 1.0
    except TypeError:
        return False


_SIDE_ORDER = {
    "home": 0,
    "draw": 1,
    "away": 2,
    "over": 3,
    "under": 4,
    "yes": 5,
    "no": 6,
    "odd": 7,
    "even": 8,
}
