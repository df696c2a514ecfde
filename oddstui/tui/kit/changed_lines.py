"""A DataTable that, when rows are added, removed or reordered, repaints only the lines that now
show something else.

DataTable repaints the whole table for any such change (`remove_row`, a new virtual size, our
reorder): on a board of hundreds of rows where a few come and go every second, most of them off
screen, every visible line went to the terminal again many times a second (the arbitrage
benchmark: 135 KiB/s, 60 % of it lines rewritten unchanged). Inside `changing_rows()` a whole
repaint asked for is held back; at its end each visible line is compared with what that line
last rendered (which row, which version of it, cursor and hover on it) and only the lines that
differ are repainted. A cell written in place repaints its own region as before.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Self

from rich.text import Text
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import DataTable
from textual.widgets.data_table import RowKey

LineShown = tuple[Any, ...]
"""What one line of the table shows: the row's key and version, cursor and hover on it."""


class ChangedLinesTable(DataTable[Text]):
    """A DataTable whose row-set changes repaint only the lines they changed."""

    def __init__(self, **kwargs: Any) -> None:
        # Set before DataTable's own __init__, which already refreshes.
        #: A number per row, new each time the row is added (its cells are new then).
        self._row_version: dict[RowKey, int] = {}
        self._versions = itertools.count()
        #: What each visible line showed when it last rendered.
        self._rendered: dict[int, LineShown] = {}
        self._changing = 0
        self._repaint_held = False
        super().__init__(**kwargs)

    @contextmanager
    def changing_rows(self) -> Iterator[None]:
        """Add, remove or reorder rows inside: the lines they changed are repainted at the end."""
        self._changing += 1
        try:
            yield
        finally:
            self._changing -= 1
            if not self._changing and self._repaint_held:
                self._repaint_held = False
                self._repaint_changed_lines()

    def new_row_version(self, key: RowKey) -> None:
        """Row `key` was (re)added with new cells: its lines must repaint."""
        self._row_version[key] = next(self._versions)

    def repaint_whole(self) -> None:
        """Repaint every line, even inside `changing_rows()` (a rebuild: columns too)."""
        super().refresh()

    def remove_row(self, row_key: RowKey | str) -> None:
        self._row_version.pop(row_key if isinstance(row_key, RowKey) else RowKey(row_key), None)
        super().remove_row(row_key)

    def clear(self, columns: bool = False) -> Self:
        self._row_version.clear()
        return super().clear(columns)

    def refresh(
        self,
        *regions: Region,
        repaint: bool = True,
        layout: bool = False,
        recompose: bool = False,
    ) -> Self:
        if self._changing and repaint and not regions and not recompose:
            self._repaint_held = True  # the lines that changed are repainted at the end
            return super().refresh(repaint=False, layout=layout)
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def _update_dimensions(self, new_rows: Any) -> None:
        # The rows' new virtual size asks for a whole repaint; the lines did not change.
        with self.changing_rows():
            super()._update_dimensions(new_rows)

    def render_line(self, y: int) -> Strip:
        self._rendered[y] = self._line_shown(y)
        return super().render_line(y)

    def _line_shown(self, y: int) -> LineShown:
        scroll_x, scroll_y = self.scroll_offset
        header = self.header_height if self.show_header else 0
        if y < header:
            return ("header", scroll_x, self.size.width)
        index = y - header + scroll_y
        rows = self.ordered_rows
        if index >= len(rows):
            return (None, scroll_x, self.size.width)
        key = rows[index].key
        return (
            key,
            self._row_version.get(key),
            index == self.cursor_row,
            index == self.hover_row,
            scroll_x,
            self.size.width,
        )

    def _repaint_changed_lines(self) -> None:
        width, height = self.size
        if self.fixed_rows or any(row.height != 1 for row in self.rows.values()):
            super().refresh()  # lines and rows do not map one to one: repaint it all
            return
        for y in range(height):
            if self._rendered.get(y) != self._line_shown(y):
                super().refresh(Region(0, y, width, 1))
