"""A `PatchTable` for big boards: a changed row repaints once, and only when it is on screen.

`PatchTable` repaints each changed cell's region; the table draws a whole line for each, so a row
whose age, clock and price changed in one tick went out three times, and rows scrolled out of
view were still repainted. Here a cell write stores the value, invalidates the render caches (so
the row is right once scrolled into view) and refreshes its row once per `sync_row`, only when
the row is visible.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text
from textual.widgets.data_table import ColumnKey, RowKey

from oddstui.tui.kit.patch_table import PatchTable, ScreenOrderedTable


class BoardTable(ScreenOrderedTable):
    """`PatchTable` whose cell updates repaint one visible row, once per `sync_row`."""

    _batch: set[int] | None = None

    def _write_cell(self, key: str, column: str, text: Text) -> None:
        row_key, column_key = RowKey(key), ColumnKey(column)
        index = self._row_locations.get(row_key)
        if index is None or column_key not in self._column_locations:
            super()._write_cell(key, column, text)
            return
        self._data[row_key][column_key] = text
        self._cell_changed()
        if not self.row_visible(index):
            return
        if self._batch is not None:
            self._batch.add(index)
        else:
            self.refresh_row(index)

    def sync_row(
        self, key: str, cells: Mapping[str, Text], sort: Mapping[str, Any] | None = None
    ) -> bool:
        self._batch = set()
        try:
            return super().sync_row(key, cells, sort)
        finally:
            batch, self._batch = self._batch, None
            for index in batch:
                self.refresh_row(index)

    def row_visible(self, index: int) -> bool:
        first = int(self.scroll_y)
        return first <= index < first + self.size.height


def visible_keys(table: PatchTable) -> list[str]:
    """The keys of the rows on screen (and the next one), top to bottom."""
    first = int(table.scroll_y)
    return table.row_keys[first : first + table.size.height + 1]
