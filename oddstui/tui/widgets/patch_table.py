"""A DataTable that is patched cell by cell instead of being rebuilt."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rich.text import Text
from textual._two_way_dict import TwoWayDict
from textual.coordinate import Coordinate
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey, RowDoesNotExist, RowKey


class PatchTable(DataTable[Text]):
    """Rows and columns have keys; `sync_row` rewrites only the cells whose text changed.

    | method | does |
    |---|---|
    | `sync_row` | add a row, or patch the cells of an existing one that changed |
    | `keep_rows` | remove every row whose key is not given |
    | `order_rows` | put rows in a given key order, only if it differs from the current one |
    """

    DEFAULT_CSS = """
    PatchTable { height: 1fr; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(cursor_type="row", zebra_stripes=False, id=id, classes=classes)
        self._shown: dict[str, dict[str, Text]] = {}
        self._column_order: list[str] = []
        #: How many cells were written since the table was made (read by tests and benchmarks).
        self.cells_written = 0

    def set_columns(self, columns: Iterable[tuple[str, str, int | None]]) -> None:
        """Declare the columns once: (key, label, fixed width or None for automatic)."""
        for key, label, width in columns:
            self.add_column(label, key=key, width=width)
            self._column_order.append(key)

    def sync_row(self, key: str, cells: Mapping[str, Text]) -> bool:
        """Show `cells` in row `key`; returns True when the row is new."""
        shown = self._shown.get(key)
        if shown is None:
            row = [cells.get(column, Text("")) for column in self._column_order]
            self.add_row(*row, key=key)
            self._shown[key] = dict(zip(self._column_order, row, strict=True))
            self.cells_written += len(row)
            return True
        for column, text in cells.items():
            if shown.get(column) != text:
                shown[column] = text
                self._write_cell(key, column, text)
                self.cells_written += 1
        return False

    def _write_cell(self, key: str, column: str, text: Text) -> None:
        """`update_cell` without its whole-table refresh: only the cell's region is repainted,
        so the terminal receives one cell, not the whole table (columns are fixed width)."""
        row_key, column_key = RowKey(key), ColumnKey(column)
        row_index = self._row_locations.get(row_key)
        column_index = self._column_locations.get(column_key)
        if row_index is None or column_index is None:
            self.update_cell(key, column, text, update_width=False)
            return
        self._data[row_key][column_key] = text
        self._update_count += 1  # the render caches are keyed by it
        self.refresh_coordinate(Coordinate(row_index, column_index))

    def keep_rows(self, keys: Iterable[str]) -> None:
        wanted = set(keys)
        for key in [key for key in self._shown if key not in wanted]:
            del self._shown[key]
            try:
                self.remove_row(key)
            except RowDoesNotExist:
                pass

    def order_rows(self, keys: list[str]) -> None:
        """Reorder rows to `keys` (rows not listed keep their place after them)."""
        current = [row.key.value for row in self.ordered_rows]
        wanted = [key for key in keys if key in self._shown]
        rest = [key for key in current if key not in set(wanted)]
        order = wanted + rest
        if order == current:
            return
        # DataTable.sort() only sees cell values, not row keys; place rows by key directly.
        self._row_locations = TwoWayDict({RowKey(key): index for index, key in enumerate(order)})
        self._update_count += 1
        self.refresh()

    def reset(self) -> None:
        """Forget every row: for a new data set, never for a tick."""
        self.clear()
        self._shown.clear()

    @property
    def row_keys(self) -> list[str]:
        return [str(row.key.value) for row in self.ordered_rows]

    def cell_text(self, row: str, column: str) -> str:
        """The plain text shown in one cell ("" when there is none)."""
        shown = self._shown.get(row, {}).get(column)
        return shown.plain if shown is not None else ""

    def highlighted_key(self) -> str | None:
        if self.row_count == 0:
            return None
        try:
            row_key, _ = self.coordinate_to_cell_key(self.cursor_coordinate)
        except Exception:
            return None
        return None if row_key.value is None else str(row_key.value)
