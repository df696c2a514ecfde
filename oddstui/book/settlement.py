"""Settling a bet's leg from the final score, its profit and loss, and closing-line value.

Pure maths (MATHS.md): no I/O. A leg's result is a fraction of its stake that wins: 1 won,
0.5 half won (a quarter line), 0 void (a push), -0.5 half lost, -1 lost. Only the main markets
are settled here (`SETTLED_MARKETS`); any other market is the trader's to settle by hand.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from oddstui.book.fair_policy import FAIR_POLICY

WON, HALF_WON, VOID, HALF_LOST, LOST = 1.0, 0.5, 0.0, -0.5, -1.0
RESULT_WORDS = {
    WON: "won",
    HALF_WON: "half won",
    VOID: "void",
    HALF_LOST: "half lost",
    LOST: "lost",
}
#: The results a trader may set by hand, by word.
RESULTS_BY_WORD = {word: value for value, word in RESULT_WORDS.items()}
#: Markets settled from the final score (case-insensitive), the rest by hand.
SETTLED_MARKETS = ("ml", "spread", "totals", "team total home", "team total away", "draw no bet")


@dataclass(frozen=True, slots=True)
class FinalScore:
    """The scores a settlement reads: the match (overtime-inclusive) and regulation (`ft`)."""

    home: int
    away: int
    regulation: tuple[int, int] | None = None


def settles_by_score(market: str) -> bool:
    return market.strip().casefold() in SETTLED_MARKETS


def settle_leg(
    market: str, hdp: float | None, side: str, score: FinalScore, *, has_draw: bool
) -> float | None:
    """The leg's result from the final score, or None when this market is settled by hand.

    A sport with a draw settles on regulation time (`ft`, when the service sent it), as its
    three-way markets are quoted; a sport without one on the overtime-inclusive result.
    """
    name, side = market.strip().casefold(), side.casefold()
    home, away = score.home, score.away
    if has_draw and score.regulation is not None:
        home, away = score.regulation
    if name == "ml":
        outcome = "home" if home > away else "away" if away > home else "draw"
        if outcome == "draw" and not has_draw:
            return VOID  # a two-way price on a tie: stakes back
        return WON if side == outcome else LOST
    if name == "draw no bet":
        if home == away:
            return VOID
        return WON if side == ("home" if home > away else "away") else LOST
    if hdp is None:
        return None
    if name == "spread":
        if side not in ("home", "away"):
            return None
        margin = home - away if side == "home" else away - home
        line = hdp if side == "home" else -hdp
        return _split(lambda part: _compare(margin + part, 0.0), line)
    totals = {"totals": home + away, "team total home": home, "team total away": away}
    if name in totals and side in ("over", "under"):
        total = totals[name]
        sign = 1.0 if side == "over" else -1.0
        return _split(lambda part: _compare(sign * (total - part), 0.0), hdp)
    return None


def _compare(value: float, zero: float) -> float:
    if math.isclose(value, zero, abs_tol=1e-9):
        return VOID
    return WON if value > zero else LOST


def _split(settle: Callable[[float], float], line: float) -> float:
    """A quarter line (x.25, x.75) is half the stake on each neighbouring half line."""
    quarter = abs(line * 4 - round(line * 4)) < 1e-9 and round(line * 4) % 2 != 0
    if not quarter:
        return float(settle(line))
    return (float(settle(line - 0.25)) + float(settle(line + 0.25))) / 2


def effective_price(price: float, commission: float = 0.0) -> float:
    """What a winning unit pays back, net of an exchange's commission on winnings."""
    return 1.0 + (price - 1.0) * (1.0 - commission)


def leg_profit(stake: float, price: float, result: float, commission: float = 0.0) -> float:
    """Profit (negative: loss) of one leg: the winning share at the price, the losing share lost."""
    if result > 0:
        return stake * result * (effective_price(price, commission) - 1.0)
    return stake * result


def closing_fair_price(prices: Mapping[str, float], side: str) -> float | None:
    """The sharp book's closing price of `side` with its margin removed by the fair-price
    policy (`book.fair_policy`), from every side of its closing line; None when a side is
    missing or not a price."""
    usable = {name: value for name, value in prices.items() if value > 1.0 and math.isfinite(value)}
    if side not in usable or len(usable) < 2:
        return None
    probabilities = FAIR_POLICY.margin_removed(list(usable.values()))
    if probabilities is None:
        return None
    return 1.0 / probabilities[list(usable).index(side)]


def closing_line_value(price_taken: float, fair_close: float) -> float:
    """MATHS.md: `d_taken / d_close_fair − 1` (0.05: the price beat the closing line by 5 %)."""
    return price_taken / fair_close - 1.0
