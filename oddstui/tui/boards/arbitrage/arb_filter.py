"""What the arbitrage board shows: its inline filters (parsed by `boards.filters`). No textual."""

from __future__ import annotations

from dataclasses import dataclass, replace

from oddstui.tui.boards.arbitrage.arb_rows import ArbRow
from oddstui.tui.boards.filters import parse_names, parse_number


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
