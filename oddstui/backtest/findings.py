"""What a backtest finds: each arbitrage and each value bet, as its report lists them.

Each line's `LineState` holds the ones open on it; the trackers (`arbitrages`, `value_bets`)
open, update and close them.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, TypeVar

from oddstui.book.settlement import leg_profit
from oddstui.book.state import LineKey
from oddstui.book.value import closing_line_value

_T = TypeVar("_T")


def _pickled_by_fields(cls: type[_T]) -> type[_T]:
    """Pickled as the arguments that make it: the reports a shared backtest's processes send
    back hold tens of thousands of findings, and that is three times faster, both ways, than
    pickling a slotted dataclass's state."""
    getter = attrgetter(*(field.name for field in fields(cls)))  # type: ignore[arg-type]

    def __reduce__(self: _T) -> tuple[type[_T], tuple[Any, ...]]:
        return cls, getter(self)

    cls.__reduce__ = __reduce__  # type: ignore[assignment,method-assign]
    return cls


LegsKey = tuple[tuple[str, str], ...]
"""((side, bookmaker), ...) in the legs' order."""


@_pickled_by_fields
@dataclass(slots=True)
class ArbitrageSeen:
    event_id: int
    market: str
    line: LineKey
    legs: tuple[tuple[str, float, str], ...]
    """(side, price, bookmaker) when the profit was best."""
    first_seen: float
    last_seen: float
    """When it went (or the recording's end, when `open_at_end`)."""
    best_profit: float
    """Percent, (1/S - 1) · 100 on the total stake, each exchange leg net of commission."""
    open_at_end: bool = True
    suspect: str = ""
    """Why its edge is not to be believed (`book.suspect`) when it was best, or ""."""

    @property
    def legs_key(self) -> LegsKey:
        return tuple((side, book) for side, _, book in self.legs)

    @property
    def duration(self) -> float:
        return self.last_seen - self.first_seen


@_pickled_by_fields
@dataclass(slots=True)
class ValueBetSeen:
    event_id: int
    market: str
    line: LineKey
    bookmaker: str
    side: str
    time: float
    price: float
    fair: float
    """The sharp book's fair price of the side when the bet was taken."""
    ev: float
    in_play: bool
    closing_fair: float | None = None
    closed_at: str = ""
    """"kick-off" or "last" (the sharp book's last fair price in the recording)."""
    result: float | None = None
    """`book.settlement` result (1 won … -1 lost) when the recording holds the final score."""
    suspect: str = ""
    """Why its edge is not to be believed (`book.suspect`) when it was taken, or ""."""

    @property
    def profit(self) -> float | None:
        """Profit of a one-unit stake, once settled."""
        return None if self.result is None else leg_profit(1.0, self.price, self.result)

    @property
    def clv(self) -> float | None:
        """Closing-line value in percent: d_taken / d_close_fair - 1."""
        if self.closing_fair is None:
            return None
        return 100.0 * closing_line_value(self.price, self.closing_fair)
