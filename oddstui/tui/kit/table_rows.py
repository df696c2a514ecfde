"""The rows of a `PatchTable`: every row's cells are kept, and the DataTable shows the ones that
pass the text filter, in the screen's order or the user's sort, in the columns that fit.

Keeping the cells apart from the DataTable is what lets a hidden column come back, a filtered
row reappear and a re-layout rebuild the table without asking the screen again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rich.text import Text
from textual._two_way_dict import TwoWayDict
from textual.coordinate import Coordinate
from textual.widgets.data_table import ColumnKey, RowDoesNotExist, RowKey

from oddstui.tui.kit.changed_lines import ChangedLinesTable
from oddstui.tui.kit.columns import Column, matches, natural, sort_keys
from oddstui.tui.kit.table_prefs import TablePrefs

#: Adding or removing more rows than this at once rebuilds the table (remove_row is O(rows)).
REBUILD_OVER = 40


class TableRows(ChangedLinesTable):
    """A DataTable fed through a model of rows; `PatchTable` adds the user's choices."""

    DEFAULT_CSS = """
    TableRows { height: 1fr; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(cursor_type="row", zebra_stripes=False, id=id, classes=classes)
        #: Every declared column, and the (key, width) of those shown.
        self.specs: list[Column] = []
        self.column_layout: list[tuple[str, int]] = []
        #: Every row's cells by column (shown or not), and the values rows sort by.
        self.shown: dict[str, dict[str, Text]] = {}
        self.sort_values: dict[str, dict[str, Any]] = {}
        #: The screen's order of the rows (rows it did not place yet come last).
        self.order: list[str] = []
        #: The user's sort and hidden columns; the text filter ("" shows every row).
        self.prefs = TablePrefs()
        self.query_text = ""
        self._reorder_pending = False
        #: How many cells were written since the table was made (read by tests and benchmarks).
        self.cells_written = 0
        self._keys_of: tuple[list[Any], list[str]] | None = None  # `row_keys` of an order

    # ------------------------------------------------------------------ feeding rows

    def sync_row(
        self, key: str, cells: Mapping[str, Text], sort: Mapping[str, Any] | None = None
    ) -> bool:
        """Show `cells` in row `key` (`sort`: values to sort columns by instead of their text);
        returns True when the row is new."""
        if sort is not None:
            before = self.sort_values.get(key)
            self.sort_values[key] = {**(before or {}), **sort}
            column = self.prefs.sort
            if before is not None and column is not None and column in sort:
                if before.get(column) != sort[column]:
                    self._reorder_soon()
        model = self.shown.get(key)
        if model is None:
            self.shown[key] = {spec.key: cells.get(spec.key, Text("")) for spec in self.specs}
            self.shown[key].update(cells)
            self.order.append(key)
            if self.passes(key):
                with self.changing_rows():
                    self._add_row(key)
                self.cells_written += len(self.column_layout)
                if self.prefs.sort is not None:
                    self._reorder_soon()
            return True
        changed = [column for column, text in cells.items() if model.get(column) != text]
        on_screen = RowKey(key) in self._row_locations
        visible = set(self.shown_columns())
        for column in changed:
            model[column] = cells[column]
            if on_screen and column in visible:
                self._write_cell(key, column, cells[column])
                self.cells_written += 1
        if changed and (self.query_text or self.prefs.sort in changed):
            self._reorder_soon()
        return False

    def _write_cell(self, key: str, column: str, text: Text) -> None:
        """`update_cell` without its whole-table refresh: only the cell's region is repainted,
        so the terminal receives one cell, not the whole table (columns are fixed width)."""
        self._data[RowKey(key)][ColumnKey(column)] = text
        self._cell_changed()
        row_index = self._row_locations.get(RowKey(key))
        column_index = self._column_locations.get(ColumnKey(column))
        if row_index is not None and column_index is not None:
            self.refresh_coordinate(Coordinate(row_index, column_index))

    def _cell_changed(self) -> None:
        """A cell's value changed: the render caches, keyed by the update count, must not serve
        the old one. The order of the rows is keyed by it too, but a cell leaves the order as it
        was: carried over to the new count, it is not rebuilt (every row) at each cell."""
        order = self._ordered_row_cache.get((self.row_count, self._update_count))
        self._update_count += 1
        if order is not None:
            self._ordered_row_cache[(self.row_count, self._update_count)] = order

    def keep_rows(self, keys: Iterable[str]) -> None:
        wanted = set(keys)
        doomed = [key for key in self.shown if key not in wanted]
        if not doomed:
            return
        for key in doomed:
            del self.shown[key]
            self.sort_values.pop(key, None)
        self.order = [key for key in self.order if key in self.shown]
        on_screen = [key for key in doomed if RowKey(key) in self._row_locations]
        if len(on_screen) > REBUILD_OVER:
            self.rebuild()
            return
        with self.changing_rows():
            for key in on_screen:
                try:
                    self.remove_row(key)
                except RowDoesNotExist:
                    pass

    def order_rows(self, keys: list[str]) -> None:
        """The screen's order of the rows (rows not listed keep their place after them)."""
        listed = [key for key in keys if key in self.shown]
        chosen = set(listed)
        self.order = listed + [key for key in self.order if key not in chosen]
        self.apply_order()

    def reset(self) -> None:
        """Forget every row: for a new data set, never for a tick."""
        self.clear()
        self.shown.clear()
        self.sort_values.clear()
        self.order.clear()

    # ------------------------------------------------------------------ what is shown

    def shown_columns(self) -> list[str]:
        """The keys of the columns on screen, left to right."""
        return [key for key, _ in self.column_layout]

    def display_order(self) -> list[str]:
        """The rows to show, in order: the screen's, sorted by the user's column, filtered."""
        keys = [key for key in self.order if key in self.shown]
        column = self.prefs.sort
        if column is not None:
            keys = sort_keys(
                keys, lambda key: self.sort_value(key, column), descending=self.prefs.descending
            )
        return [key for key in keys if self.passes(key)] if self.query_text else keys

    def sort_value(self, key: str, column: str) -> Any:
        given = self.sort_values.get(key, {})
        if column in given:
            return given[column]
        text = self.shown[key].get(column)
        return natural(text.plain) if text is not None else ()

    def passes(self, key: str) -> bool:
        return self.would_pass(self.shown[key])

    def would_pass(self, cells: Mapping[str, Text]) -> bool:
        """True when a row of these cells passes the find filter, shown or not (a hidden
        suspect row is counted only when the find would let it through)."""
        if not self.query_text:
            return True
        texts = {column: cells[column].plain for column in self.shown_columns() if column in cells}
        return matches(texts, self.query_text)

    def header_label(self, column: Column, width: int) -> Text:
        return Text(column.label)

    def lay_out(self, layout: list[tuple[str, int]]) -> None:
        """Show these columns at these widths, in place: the rows (and the cursor) stay, the
        cells of a column that comes back are filled from the kept cells."""
        self.column_layout = layout
        specs = {spec.key: spec for spec in self.specs}
        wanted = {key for key, _ in layout}
        for key in [column.value for column in list(self.columns) if column.value not in wanted]:
            self.remove_column(str(key))
        for key, width in layout:
            column_key = ColumnKey(key)
            label = self.header_label(specs[key], width)
            column = self.columns.get(column_key)
            if column is None:
                self.add_column(label, key=key, width=width)
                for row_key in self.rows:
                    cells = self.shown.get(str(row_key.value), {})
                    self._data[row_key][column_key] = cells.get(key, Text(""))
            else:
                column.width, column.label = width, label
        self._column_locations = TwoWayDict(
            {ColumnKey(key): index for index, (key, _) in enumerate(layout)}
        )
        self._require_update_dimensions = True
        self._update_count += 1
        self._clear_caches()
        self.refresh(layout=True)

    def rebuild(self) -> None:
        """Lay the table out again from the model: columns, then rows in display order."""
        cursor = self.highlighted_key()
        self.clear(columns=True)
        labels = {spec.key: spec for spec in self.specs}
        for key, width in self.column_layout:
            self.add_column(self.header_label(labels[key], width), key=key, width=width)
        for key in self.display_order():
            self._add_row(key)
        self._restore_cursor(cursor)
        self.repaint_whole()

    def apply_order(self) -> None:
        """Make the DataTable show `display_order()`: add, remove and place rows by key."""
        self._reorder_pending = False
        order = self.display_order()
        wanted = set(order)
        present = {str(key.value) for key in self._row_locations}
        doomed = present - wanted
        missing = [key for key in order if key not in present]
        if len(doomed) + len(missing) > REBUILD_OVER:
            self.rebuild()
            return
        cursor = self.highlighted_key()
        with self.changing_rows():
            for key in doomed:
                self.remove_row(key)
            for key in missing:
                self._add_row(key)
            current = [str(row.key.value) for row in self.ordered_rows]
            if current != order:
                # DataTable.sort() only sees cell values, not row keys: place rows by key.
                self._row_locations = TwoWayDict({RowKey(key): at for at, key in enumerate(order)})
                self._update_count += 1
                self.refresh()
            self._restore_cursor(cursor)

    def _reorder_soon(self) -> None:
        if not self._reorder_pending and self.is_mounted:
            self._reorder_pending = True
            self.call_after_refresh(self._reorder_if_pending)

    def _reorder_if_pending(self) -> None:
        if self._reorder_pending:
            self.apply_order()

    def _add_row(self, key: str) -> None:
        cells = self.shown[key]
        row = self.add_row(*(cells.get(col, Text("")) for col, _ in self.column_layout), key=key)
        self.new_row_version(row)

    def _restore_cursor(self, key: str | None) -> None:
        if key is None or RowKey(key) not in self._row_locations:
            return
        index = self._row_locations.get(RowKey(key))
        if index is not None and index != self.cursor_row:
            self.move_cursor(row=index, animate=False, scroll=False)

    # ------------------------------------------------------------------ reading

    @property
    def row_keys(self) -> list[str]:
        """The keys of the rows on screen, top to bottom (the filter may hide some)."""
        ordered = self.ordered_rows  # the same list while the order holds
        if self._keys_of is None or self._keys_of[0] is not ordered:
            self._keys_of = (ordered, [str(row.key.value) for row in ordered])
        return list(self._keys_of[1])  # the caller's own copy

    @property
    def all_keys(self) -> list[str]:
        """The keys of every row, shown or filtered out."""
        return list(self.shown)

    def has_row(self, key: str) -> bool:
        return key in self.shown

    def cell_text(self, row: str, column: str) -> str:
        """The plain text of one cell, shown or not ("" when there is none)."""
        cell = self.shown.get(row, {}).get(column)
        return cell.plain if cell is not None else ""

    def highlighted_key(self) -> str | None:
        if self.row_count == 0:
            return None
        try:
            row_key, _ = self.coordinate_to_cell_key(self.cursor_coordinate)
        except Exception:
            return None
        return None if row_key.value is None else str(row_key.value)
