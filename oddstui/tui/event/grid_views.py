"""The widgets a `PriceGrid` is made of: a Line-API view per column, and the header.

Each reads the grid it belongs to through `GridSource`, so a changed price repaints one cell of
one narrow widget (see `price_grid`).
"""

from __future__ import annotations

from typing import Protocol

from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget

from oddstui.tui.event.grid_cells import hidden_marker
from oddstui.tui.kit.columns import Column


class GridSource(Protocol):
    """What the column views and the header read from their grid."""

    groups: dict[str, str]

    @property
    def row_keys(self) -> list[str]: ...

    @property
    def shown_columns(self) -> list[Column]: ...

    @property
    def hidden_columns(self) -> list[Column]: ...

    def render_cell(self, column: Column, index: int) -> Strip: ...

    def render_header(self, width: int) -> Strip: ...

    def render_groups(self, width: int) -> Strip: ...


class GridColumnView(Widget):
    """One column of the grid's rows: a cell per line, a blank cell before it as the gap.

    Its height is set as a style, the row count (`set_rows`), not `height: auto`: textual counts
    a layout refresh only when none is pending and caches the box model on that count, so a
    second row count written before the first was laid out (the rows a feed brought, then the
    snapshot's, on first open) kept the first height: 3 of 12 bookmakers shown until `m`."""

    def __init__(self, grid: GridSource, column: Column) -> None:
        super().__init__()
        self._grid = grid
        self.column = column
        self.styles.width = column.width + 1
        self.styles.height = len(grid.row_keys)
        self._strips: dict[int, Strip] = {}

    def set_rows(self, count: int) -> None:
        """`count` rows now: the height follows (a changed style always lays out again), and
        every line is drawn again."""
        self._strips.clear()
        self.styles.height = count
        self.refresh()

    def forget(self, index: int | None = None) -> None:
        """Drop cached lines (one, or all) so they are drawn again."""
        if index is None:
            self._strips.clear()
        else:
            self._strips.pop(index, None)

    def repaint_cell(self, index: int) -> None:
        self._strips.pop(index, None)
        self.refresh(Region(0, index, self.column.width + 1, 1))

    def render_line(self, y: int) -> Strip:
        strip = self._strips.get(y)
        if strip is None:
            strip = self._strips[y] = self._grid.render_cell(self.column, y)
        return strip


class GridHeader(Widget):
    """The column labels (outside the scrolled rows, so they stay in view)."""

    DEFAULT_CSS = """
    GridHeader { height: 1; width: auto; }
    """

    def __init__(self, grid: GridSource) -> None:
        super().__init__()
        self._grid = grid

    def get_content_width(self, container: Size, viewport: Size) -> int:
        marker = hidden_marker(len(self._grid.hidden_columns))
        shown = sum(column.width + 1 for column in self._grid.shown_columns)
        return shown + (len(marker) + 1 if marker else 0)

    def render_line(self, y: int) -> Strip:
        if self._grid.groups and y == 0:
            return self._grid.render_groups(self.size.width)
        return self._grid.render_header(self.size.width)
