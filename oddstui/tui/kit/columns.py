"""Table columns with priorities: which fit a terminal's width, and how rows sort by one.

Pure code (no Textual): `fit()` picks the columns to show for a width, `sort_keys()` orders row
keys by one column's values, stably, with empty cells last in either direction.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from oddstui.book.clean_text import fold

#: Cells a column costs beyond its width: DataTable pads each cell by one on either side.
PADDING = 2
#: Priority of a column given as a bare (key, label, width) tuple: always shown.
ALWAYS = 0
#: A name column is not shrunk below this many cells to make room for `+N more ›`.
MIN_SHRUNK = 12
#: Bare-tuple columns holding names, which a wide terminal widens (up to twice their width).
NAME_KEYS = frozenset({"event", "market", "legs"})


@dataclass(frozen=True, slots=True)
class Column:
    """One column of any table or grid: `priority` 0 is never dropped, higher numbers go first
    when space is short; `grow` is how many extra cells it may take on a wide terminal (names,
    leagues); `justify` places a cell's text (the Event grid right-aligns its prices)."""

    key: str
    label: str
    width: int
    priority: int = ALWAYS
    grow: int = 0
    justify: Literal["left", "right"] = "left"


def as_column(spec: Column | tuple[str, str, int | None]) -> Column:
    """A `Column` from either form; a tuple's automatic width (None) becomes its label's, and a
    tuple's name column may grow on a wide terminal (`NAME_KEYS`)."""
    if isinstance(spec, Column):
        return spec
    key, label, width = spec
    size = width if width is not None else len(label)
    return Column(key, label, size, grow=size if key in NAME_KEYS else 0)


def fit(
    columns: Sequence[Column], available: int, hidden: Iterable[str] = ()
) -> list[tuple[Column, int]]:
    """The columns to show in `available` cells, in their declared order, with their widths.

    Columns the user hid are left out; then the least needed (highest priority number, the
    rightmost first among equals) are dropped until the rest fit; priority 0 always stays.
    Cells left over widen the growing columns, each by its share of `grow`.
    """
    hidden = set(hidden)
    shown = [column for column in columns if column.key not in hidden]
    if not shown:  # hiding every column would leave an empty table: keep the first
        shown = list(columns[:1])

    def cost(chosen: list[Column]) -> int:
        return sum(column.width + PADDING for column in chosen)

    by_need = sorted(
        (column for column in shown if column.priority != ALWAYS),
        key=lambda column: (column.priority, shown.index(column)),
    )
    while by_need and cost(shown) > available:
        dropped = by_need.pop()
        shown.remove(dropped)
    spare = max(available - cost(shown), 0)
    widths = {column.key: column.width for column in shown}
    # Spare cells are shared in proportion to how much each column may grow.
    growing = [column for column in shown if column.grow]
    room = sum(column.grow for column in growing)
    given = 0
    for column in growing:
        extra = min(column.grow, spare * column.grow // room) if room else 0
        widths[column.key] += extra
        given += extra
    for column in growing:  # what rounding left, one cell at a time to the most needed
        if given >= spare:
            break
        if widths[column.key] < column.width + column.grow:
            widths[column.key] += 1
            given += 1
    return [(column, widths[column.key]) for column in shown]


_NUMBER = re.compile(r"(\d+(?:\.\d+)?)")


def natural(text: str) -> tuple[Any, ...]:
    """A sort key reading the numbers in `text` as numbers: `9:05` < `10:00`, `2-1` < `10-0`."""
    parts: list[Any] = []
    for index, part in enumerate(_NUMBER.split(text.casefold())):
        if index % 2:
            parts.append((0, float(part)))
        elif part.strip():
            parts.append((1, part.strip()))
    return tuple(parts)


def sort_keys(
    keys: Sequence[str],
    value: Callable[[str], Any],
    *,
    descending: bool = False,
) -> list[str]:
    """`keys` ordered by `value(key)`, stably; keys whose value is None or "" go last."""
    present = [key for key in keys if value(key) not in (None, "", ())]
    missing = [key for key in keys if value(key) in (None, "", ())]
    return sorted(present, key=value, reverse=descending) + missing


def matches(cells: Mapping[str, str], query: str) -> bool:
    """True when every word of `query` is somewhere in the row (case and accents ignored)."""
    words = fold(query).split()
    if not words:
        return True
    text = " ".join(fold(cell) for cell in cells.values())
    return all(word in text for word in words)


def make_room(chosen: list[tuple[Column, int]], available: int, cells: int) -> bool:
    """Free `cells` at the right end of the header, after the last column's label: from the
    blank tail first, then from the widest growing columns, a cell at a time, none below
    `MIN_SHRUNK`. Changes `chosen` in place; False when that cannot free enough."""
    last, size = chosen[-1]
    room = available - sum(width + PADDING for _, width in chosen) + size - len(last.label)
    widths = [width for _, width in chosen]
    for _ in range(max(cells - room, 0)):
        index = max(range(len(chosen)), key=lambda i: widths[i] if chosen[i][0].grow else -1)
        if not chosen[index][0].grow or widths[index] <= MIN_SHRUNK:
            return False
        widths[index] -= 1
    chosen[:] = [(column, width) for (column, _), width in zip(chosen, widths, strict=True)]
    return True
