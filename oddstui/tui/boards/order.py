"""Where each row of a trading board goes: sorted by the trader's key, stable, gone rows last.

No textual here. A board hands `arrange` one `Rank` per row; the live rows come first in the
chosen order, then the gone ones (most recently gone first), so a gone row never sits above a
live one. The sort is stable over the current order (equal rows keep their places), and the
highlighted row keeps its index while it stays live: nothing moves under the cursor.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

#: The keys a board can be sorted by, in the order `o` cycles through them.
SORT_KEYS = ("profit", "age", "start", "sport")
#: What each key means, for the summary line.
SORT_WORDS = {
    "profit": "profit, highest first",
    "age": "age, freshest first",
    "start": "start, soonest first",
    "sport": "sport, then profit",
}


@dataclass(frozen=True, slots=True)
class Rank:
    """What one row is sorted by."""

    profit: float | None = None
    """Percent as shown (two decimals): profit, EV or drop."""
    age: float | None = None
    """Seconds since the row's oldest price was quoted."""
    start: float | None = None
    """Unix time the event starts."""
    sport: str = ""
    gone: float | None = None
    """Unix time the row vanished; None while it is live."""


def _profit(rank: Rank) -> float:
    return math.inf if rank.profit is None else -round(rank.profit, 2)


_KEYS: dict[str, Callable[[Rank], tuple[float | str, ...]]] = {
    "profit": lambda rank: (_profit(rank),),
    "age": lambda rank: (math.inf if rank.age is None else rank.age, _profit(rank)),
    "start": lambda rank: (math.inf if rank.start is None else rank.start, _profit(rank)),
    "sport": lambda rank: (rank.sport.casefold() or "\uffff", _profit(rank)),
}


def next_sort_key(current: str) -> str:
    index = SORT_KEYS.index(current) if current in SORT_KEYS else -1
    return SORT_KEYS[(index + 1) % len(SORT_KEYS)]


def arrange(
    ranks: Mapping[str, Rank],
    by: str,
    current: Sequence[str] = (),
    pinned: str | None = None,
    *,
    resort: bool = True,
) -> list[str]:
    """The rows' keys in board order: live rows by `by`, then gone rows, newest gone first.

    Ties keep their `current` order. With `resort` False (between two sorts) the rows shown
    keep their order and each new row is slotted in where `by` puts it among them. `pinned`
    (the highlighted row), when already shown, stays at its index: among the live rows while
    live, and gone too (it holds the cursor until the trader moves).
    """
    sort_key = _KEYS[by]
    position = {key: index for index, key in enumerate(current)}
    start = sorted(ranks, key=lambda key: (position.get(key, len(position)), key))
    live = [key for key in start if ranks[key].gone is None]
    new = [key for key in live if key not in position]
    if resort or len(new) > len(live) // 2:
        live.sort(key=lambda key: sort_key(ranks[key]))
    else:
        live = [key for key in live if key in position]
        values = [sort_key(ranks[key]) for key in live]
        for key in sorted(new, key=lambda key: sort_key(ranks[key])):
            value = sort_key(ranks[key])
            index = next((i for i, other in enumerate(values) if other > value), len(live))
            live.insert(index, key)
            values.insert(index, value)
    gone = sorted(
        (key for key in start if ranks[key].gone is not None),
        key=lambda key: -(ranks[key].gone or 0.0),
    )
    if pinned in position and pinned in ranks:
        if ranks[pinned].gone is None:
            live.remove(pinned)
            live.insert(min(position[pinned], len(live)), pinned)
        else:  # gone under the cursor: it stays where it was until the trader moves
            gone.remove(pinned)
            order = live + gone
            order.insert(min(position[pinned], len(order)), pinned)
            return order
    return live + gone


T = TypeVar("T")


class GoneRows(Generic[T]):
    """The rows of a refetched list that vanished from its last answer, kept `grace` seconds.

    `update` takes each fresh answer; a row missing from it is remembered with its last value
    and the time it went; a row that comes back is live again.
    """

    def __init__(self, grace: float) -> None:
        self.grace = grace
        #: key -> (the row's last value, unix time it went)
        self.rows: dict[str, tuple[T, float]] = {}
        self._last: dict[str, T] = {}

    def update(self, fresh: Mapping[str, T], now: float, keep: str | None = None) -> None:
        for key, value in self._last.items():
            if key not in fresh and key not in self.rows:
                self.rows[key] = (value, now)
        for key in fresh:
            self.rows.pop(key, None)
        self._last = dict(fresh)
        self.sweep(now, keep)

    def sweep(self, now: float, keep: str | None = None) -> bool:
        """Forget rows gone longer than the grace (but `keep`, the one under the cursor); True
        when any was forgotten."""
        old = [key for key, (_, at) in self.rows.items() if now - at >= self.grace and key != keep]
        for key in old:
            del self.rows[key]
        return bool(old)

    def clear(self) -> None:
        """A new question (another page or filter): what is missing now is not "gone"."""
        self.rows.clear()
        self._last.clear()
