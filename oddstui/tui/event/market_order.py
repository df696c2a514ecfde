"""The order in which the Event screen cycles an event's markets: the sport's main markets first.

Pure code. Main markets (in the sport's own order), then team totals, then markets on one part
of the match (half, quarter, period, set, map, innings), then the rest (corners, bookings,
yes/no), and player props last.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

MAIN = ("ML", "Spread", "Totals")
#: Per sport: the main markets in the order its traders read them.
SPORT_MAIN: dict[str, tuple[str, ...]] = {
    "football": ("ML", "Spread", "Totals", "Double Chance", "Draw No Bet", "Both Teams To Score"),
    "ice-hockey": ("ML", "ML Incl OT", "Spread", "Totals"),
    "tennis": ("ML", "Sets Spread", "Sets Totals", "Spread", "Totals"),
    "volleyball": ("ML", "Sets Spread", "Sets Totals", "Spread", "Totals"),
    "esports": ("ML", "Maps Spread", "Maps Totals", "Spread", "Totals"),
}
_PART = re.compile(r"\b(HT|2H|[1-9](Q|P)|Set [1-9]|Map [1-9]|1st \d+ Innings)\b", re.IGNORECASE)
_PART_RANK = {"ht": 0, "2h": 1}


def market_order(names: Iterable[str], sport: str | None = None) -> list[str]:
    """The names, each once, in reading order for `sport` (a slug; None: the common order)."""
    main = SPORT_MAIN.get(sport or "", MAIN)
    rank = {name.casefold(): i for i, name in enumerate(main)}
    return sorted(set(names), key=lambda name: _key(name, rank))


def _key(name: str, main: dict[str, int]) -> tuple[int, int, str, str]:
    folded = name.casefold()
    if folded in main:
        return (0, main[folded], "", "")
    if folded.startswith("player props"):
        return (4, 0, "", folded)
    part = _PART.search(name)
    if part is not None:
        tag = part.group(1).casefold()
        return (2, _PART_RANK.get(tag, 2), tag, folded)
    if folded.startswith("team total"):
        return (1, 0, "", folded)
    return (3, 0, "", folded)
