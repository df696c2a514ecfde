"""A `PatchTable` for big boards: a changed row repaints itself only, and only when on screen.

`DataTable.update_cell` refreshes the whole widget, so on a board of 500 rows every price that
moved off screen repainted the screen. Here a cell update stores the value, invalidates the
render caches (so the row is right once scrolled into view) and refreshes just its row, once per
`sync_row`, when the row is visible.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text
from textual.widgets.data_table import CellDoesNotExist, ColumnKey, RowKey

from oddstui.tui.widgets.patch_table import PatchTable


class BoardTable(PatchTable):
    """`PatchTable` whose cell updates repaint one visible row, not the widget."""

    _batch: set[int] | None = None

    def update_cell(
        self,
        row_key: RowKey | str,
        column_key: ColumnKey | str,
        value: Text,
        *,
        update_width: bool = False,
    ) -> None:
        row = RowKey(row_key) if isinstance(row_key, str) else row_key
        column = ColumnKey(column_key) if isinstance(column_key, str) else column_key
        index = self._row_locations.get(row)
        column_index = self._column_locations.get(column)
        if index is None or column_index is None:
            raise CellDoesNotExist(f"No cell exists for row_key={row!r}, column_key={column!r}.")
        self._data[row][column] = value
        self._update_count += 1  # part of the render caches' keys
        if self.row_visible(index):
            if self._batch is not None:
                self._batch.add(index)
            else:
                self.refresh_row(index)

    def sync_row(self, key: str, cells: Mapping[str, Text]) -> bool:
        """As `PatchTable.sync_row`, with one repaint of the row however many cells changed
        (the table repaints a whole line per refreshed cell)."""
        self._batch = set()
        try:
            return super().sync_row(key, cells)
        finally:
            batch, self._batch = self._batch, None
            for index in batch:
                self.refresh_row(index)

    def row_visible(self, index: int) -> bool:
        first = int(self.scroll_y)
        return first <= index < first + self.size.height
