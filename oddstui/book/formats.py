"""Odds formats: decimal, American and fractional.

Decimal odds are the one internal representation, kept at full precision. The other formats are
for input and display only.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache
from typing import Literal, get_args

from oddstui.book._validate import check_price

OddsFormat = Literal["decimal", "american", "fractional"]
ODDS_FORMATS: tuple[OddsFormat, ...] = get_args(OddsFormat)

# The traditional UK ladder of fractional prices, shortest first. Fractions are kept unreduced
# on purpose (4/6, not 2/3), because that is how they are quoted.
FRACTIONAL_LADDER: tuple[tuple[int, int], ...] = (
    (1, 100),
    (1, 66),
    (1, 50),
    (1, 40),
    (1, 33),
    (1, 25),
    (1, 20),
    (1, 16),
    (1, 14),
    (1, 12),
    (1, 10),
    (1, 9),
    (1, 8),
    (2, 15),
    (1, 7),
    (2, 13),
    (1, 6),
    (2, 11),
    (1, 5),
    (2, 9),
    (1, 4),
    (2, 7),
    (3, 10),
    (1, 3),
    (4, 11),
    (2, 5),
    (4, 9),
    (1, 2),
    (8, 15),
    (4, 7),
    (8, 13),
    (4, 6),
    (8, 11),
    (4, 5),
    (5, 6),
    (10, 11),
    (1, 1),
    (21, 20),
    (11, 10),
    (6, 5),
    (5, 4),
    (11, 8),
    (6, 4),
    (13, 8),
    (7, 4),
    (15, 8),
    (2, 1),
    (85, 40),
    (9, 4),
    (5, 2),
    (11, 4),
    (3, 1),
    (100, 30),
    (7, 2),
    (4, 1),
    (9, 2),
    (5, 1),
    (11, 2),
    (6, 1),
    (13, 2),
    (7, 1),
    (15, 2),
    (8, 1),
    (17, 2),
    (9, 1),
    (10, 1),
    (11, 1),
    (12, 1),
    (14, 1),
    (16, 1),
    (18, 1),
    (20, 1),
    (22, 1),
    (25, 1),
    (28, 1),
    (33, 1),
    (40, 1),
    (50, 1),
    (66, 1),
    (80, 1),
    (100, 1),
    (125, 1),
    (150, 1),
    (200, 1),
    (250, 1),
    (300, 1),
    (500, 1),
    (1000, 1),
)
_LADDER_DECIMALS: tuple[float, ...] = tuple(1 + n / m for n, m in FRACTIONAL_LADDER)

# A ladder price within this share of the decimal price is that price as the books quote it.
SNAP_TOLERANCE = 0.005
# Off the ladder, the exact fraction is shown when a trader can read it at a glance (19/20,
# 7/8, 29/1); otherwise (62/21, 131/2, 369/125) the nearest ladder price is.
READABLE_NUMERATOR, READABLE_DENOMINATOR = 40, 20
#: Decimal places a price is shown with: at least two, three when the book quotes a third.
LEAST_PLACES, MOST_PLACES = 2, 3


def american_to_decimal(american: float) -> float:
    """+150 -> 2.5, -200 -> 1.5. American odds between -100 and +100 do not exist."""
    a = float(american)
    if not math.isfinite(a) or -100 < a < 100:
        raise ValueError(f"American odds {american!r} must be +100 or more, or -100 or less")
    return 1 + a / 100 if a > 0 else 1 + 100 / -a


def decimal_to_american(decimal: float) -> int:
    """2.5 -> +150, 1.5 -> -200, 2.00 -> +100 (evens). Rounded to the nearest integer."""
    d = check_price(decimal)
    if d >= 2:
        return _round_half_away(100 * (d - 1))
    return -_round_half_away(100 / (d - 1))


def fractional_to_decimal(numerator: int, denominator: int) -> float:
    """5/2 -> 3.5."""
    if numerator <= 0 or denominator <= 0:
        raise ValueError(f"fractional odds {numerator}/{denominator} need positive parts")
    return 1 + numerator / denominator


def decimal_to_fractional(decimal: float) -> tuple[int, int]:
    """The usual ladder (1.91 -> 10/11, 2.5 -> 6/4, 4.33 -> 100/30), else the exact fraction when
    it reads easily (1.95 -> 19/20), else the nearest ladder price (3.952 -> 3/1).

    The result is not reduced when it comes from the ladder, so 1.67 gives (4, 6).
    """
    return _to_fractional(check_price(decimal))


@lru_cache(maxsize=8192)
def _to_fractional(d: float) -> tuple[int, int]:
    # Prices repeat across cells and ticks, so the display conversion is cached.
    above = bisect_left(_LADDER_DECIMALS, d)
    nearest = min(
        (i for i in (above - 1, above) if 0 <= i < len(_LADDER_DECIMALS)),
        key=lambda i: abs(_LADDER_DECIMALS[i] - d),
    )
    if abs(_LADDER_DECIMALS[nearest] - d) <= SNAP_TOLERANCE * d:
        return FRACTIONAL_LADDER[nearest]
    exact = Fraction(f"{d:.{price_places(d)}f}") - 1
    readable = exact.numerator <= READABLE_NUMERATOR and exact.denominator <= READABLE_DENOMINATOR
    beyond = not _LADDER_DECIMALS[0] <= d <= _LADDER_DECIMALS[-1]
    if readable or beyond:
        exact = max(exact, Fraction(1, 1000))  # below 1.001 nothing is exact at three places
        return exact.numerator, exact.denominator
    return FRACTIONAL_LADDER[nearest]


def fraction_is_exact(decimal: float) -> bool:
    """True when the fraction shown for `decimal` is that price at the places it is quoted
    with (1.91 as 10/11, 4.33 as 100/30); False when it is a ladder price near it (6.32 as
    11/2), so an edge worked out from the price does not follow from the fraction."""
    d = check_price(decimal)
    numerator, denominator = decimal_to_fractional(d)
    return round(1 + numerator / denominator, price_places(d)) == round(d, price_places(d))


def price_places(decimal: float) -> int:
    """The decimal places `decimal` needs, at least two and at most three: 1.9 -> 2, 7.007 -> 3.

    Prices travel as floats, so a book's precision shows in its prices: one quoting three
    places has prices that need them. (A computed price, such as a fair one, stops at three.)
    """
    for places in range(LEAST_PLACES, MOST_PLACES):
        if abs(round(decimal, places) - decimal) < 1e-9:
            return places
    return MOST_PLACES


def exact_price(decimal: float) -> float:
    """A price as a bookmaker quotes it, without the float noise arithmetic leaves behind
    (2.3170000000000002 is 2.317): no bookmaker quotes more than a few places."""
    return round(decimal, 6)


def book_places(prices: Iterable[float | None]) -> int:
    """The places one bookmaker's prices are shown with: what the most precise of them needs, so
    its column reads `1.900 2.228`, not `1.90 2.228`."""
    return max((price_places(p) for p in prices if p is not None), default=LEAST_PLACES)


#: Leads a fractional price that is the nearest ladder price, not the price itself (`≈11/2`).
ROUNDED_MARK = "≈"


def format_price(
    decimal: float | None,
    fmt: OddsFormat = "decimal",
    places: int | None = None,
    *,
    mark_rounded: bool = False,
) -> str:
    """Display text for a price: "2.10", "+110", "11/10" or "EVS". Missing prices give "-".

    Decimal prices keep the book's precision (`price_places`) unless `places` is given. With
    `mark_rounded`, a fraction that is only the ladder price nearest the price is marked `≈`."""
    try:
        d = check_price(decimal)
    except ValueError:
        return "-"
    if fmt == "decimal":
        return f"{d:.{price_places(d) if places is None else places}f}"
    if fmt == "american":
        return f"{decimal_to_american(d):+d}"
    if fmt == "fractional":
        numerator, denominator = decimal_to_fractional(d)
        text = "EVS" if numerator == denominator else f"{numerator}/{denominator}"
        return ROUNDED_MARK + text if mark_rounded and not fraction_is_exact(d) else text
    raise ValueError(f"unknown odds format {fmt!r}; use one of {', '.join(ODDS_FORMATS)}")


def parse_odds_format(text: str) -> OddsFormat:
    """Validate an odds format name from config or a flag."""
    for fmt in ODDS_FORMATS:
        if text.strip().lower() == fmt:
            return fmt
    raise ValueError(f"unknown odds format {text!r}; use one of {', '.join(ODDS_FORMATS)}")


def _round_half_away(x: float) -> int:
    return int(math.floor(abs(x) + 0.5)) * (1 if x >= 0 else -1)
