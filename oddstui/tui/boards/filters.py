"""Filters typed into the boards' inline inputs: parsed here, refused with one line of reason.

Each parser turns the text of one input into a value or raises `ValueError` with a message the
board shows next to the input; the board then keeps its last good filter.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from oddstui.tui.boards.arbitrage.arb_rows import ArbRow


def parse_number(
    text: str, what: str, *, minimum: float = 0.0, maximum: float | None = None
) -> float | None:
    """A number at least `minimum` (and at most `maximum`); empty text means "no limit"."""
    text = text.strip()
    if not text:
        return None
    try:
        value = float(text.rstrip("%s").strip())
    except ValueError:
        raise ValueError(f"{what} must be a number, not {text!r}") from None
    if not math.isfinite(value):
        raise ValueError(f"{what} must be a finite number")
    if value < minimum:
        raise ValueError(f"{what} must be at least {minimum:g}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{what} must be at most {maximum:g}")
    return value


def parse_names(text: str, what: str) -> frozenset[str]:
    """Comma-separated names, compared case-insensitively; empty text means "all"."""
    names = [part.strip() for part in text.split(",")]
    if any(not name for name in names) and text.strip():
        raise ValueError(f"{what}: an empty name between commas")
    chosen = frozenset(name.casefold() for name in names if name)
    if any(len(name) > 60 for name in chosen):
        raise ValueError(f"{what}: a name longer than 60 characters")
    return chosen


@dataclass(frozen=True, slots=True)
class ArbFilter:
    """What the arbitrage board shows."""

    min_profit: float | None = None
    """Percent, (1/S - 1) · 100."""
    sports: frozenset[str] = frozenset()
    """Sport names or slugs, casefolded; empty means every sport."""
    bookmakers: frozenset[str] = frozenset()
    """Every leg must be at one of these bookmakers; empty means any bookmaker."""
    max_age: float | None = None
    """Seconds: the oldest leg must be younger than this."""

    def with_field(self, name: str, text: str) -> ArbFilter:
        """This filter with one field parsed from `text` (raises `ValueError` when refused)."""
        if name == "min_profit":
            return replace(self, min_profit=parse_number(text, "minimum profit", maximum=1000))
        if name == "sports":
            return replace(self, sports=parse_names(text, "sports"))
        if name == "bookmakers":
            return replace(self, bookmakers=parse_names(text, "bookmakers"))
        if name == "max_age":
            return replace(self, max_age=parse_number(text, "maximum leg age", minimum=1))
        raise KeyError(name)

    def accepts(self, row: ArbRow, sport: tuple[str, ...], age: float | None) -> bool:
        """`sport` is the event's (name, slug) as known; `age` the oldest leg's, in seconds."""
        if self.min_profit is not None and row.profit_pct < self.min_profit:
            return False
        if self.sports and not any(name.casefold() in self.sports for name in sport if name):
            return False
        if self.bookmakers and any(
            leg.bookmaker.casefold() not in self.bookmakers for leg in row.legs
        ):
            return False
        return self.max_age is None or age is None or age <= self.max_age
