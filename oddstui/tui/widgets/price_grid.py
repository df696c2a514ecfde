"""The markets × bookmakers grid: a Line-API widget that repaints only the cells that changed.

A `DataTable.update_cell` repaints the whole table; at a few hundred price changes a second that
is most of the terminal traffic. Here every column has a fixed width, so a changed cell is one
known region, and only that region is marked dirty: the compositor writes a few dozen bytes per
changed price instead of the table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from oddstui.tui.text import clean

#: The cell styles, named by the component classes that colour them (`price-grid--<role>`).
ROLES = ("best", "up", "down", "stale", "muted", "link")


@dataclass(frozen=True, slots=True)
class GridColumn:
    """A column of fixed width (in cells)."""

    key: str
    label: str
    width: int
    justify: Literal["left", "right"] = "right"


@dataclass(frozen=True, slots=True)
class Cell:
    """What one cell shows: literal text (never markup), its roles, and maybe a hyperlink."""

    text: str
    roles: tuple[str, ...] = ()
    link: str | None = None


EMPTY = Cell("")


def safe_link(url: str | None) -> str | None:
    """An http(s) URL fit for a terminal hyperlink, or None (missing, "N/A", other schemes)."""
    if not url:
        return None
    cleaned = clean(url).strip()
    if cleaned != url.strip() or not cleaned.lower().startswith(("http://", "https://")):
        return None
    return cleaned


class PriceGrid(ScrollView, can_focus=True):
    """Rows (bookmakers) × fixed-width columns, patched cell by cell.

    | key | action |
    |---|---|
    | `down` / `j` | next row |
    | `up` / `k` | previous row |

    | component class | styles |
    |---|---|
    | `price-grid--header` | the column labels |
    | `price-grid--cursor` | the highlighted row |
    | `price-grid--best` | the best price of a side |
    | `price-grid--up` / `price-grid--down` | a price that just rose / fell |
    | `price-grid--stale` | a price that may be out of date |
    | `price-grid--muted` | secondary figures (age, margin) |
    | `price-grid--link` | a bookmaker name that is a hyperlink |
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "price-grid--header",
        "price-grid--cursor",
        *(f"price-grid--{role}" for role in ROLES),
    }
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down", "cursor_down", "Down", show=False),
        Binding("up", "cursor_up", "Up", show=False),
    ]
    DEFAULT_CSS = """
    PriceGrid { height: 1fr; overflow-x: hidden; }
    """

    cursor_row: reactive[int] = reactive(0, always_update=False, init=False)
    """Index of the highlighted row."""

    class RowHighlighted(Message):
        """The cursor moved to another row."""

        def __init__(self, grid: PriceGrid, key: str) -> None:
            super().__init__()
            self.grid = grid
            self.key = key

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._columns: list[GridColumn] = []
        self._offsets: list[int] = []
        self._rows: list[str] = []
        self._index: dict[str, int] = {}
        self._cells: dict[str, dict[str, Cell]] = {}
        self._strips: dict[str, Strip] = {}
        self._header: Strip | None = None
        self._styles: dict[tuple[str, ...], Style] = {}
        #: Cells written since the grid was made (read by tests and the benchmark).
        self.cells_written = 0

    # ------------------------------------------------------------------ data

    @property
    def columns(self) -> list[GridColumn]:
        return list(self._columns)

    @property
    def row_keys(self) -> list[str]:
        return list(self._rows)

    def set_columns(self, columns: Sequence[GridColumn]) -> None:
        """A new data set: these columns, and no rows."""
        if list(columns) == self._columns and not self._rows:
            return
        self._columns = list(columns)
        self._offsets = []
        x = 1
        for column in self._columns:
            self._offsets.append(x)
            x += column.width + 1
        self._rows, self._index, self._cells, self._strips = [], {}, {}, {}
        self._header = None
        self.cursor_row = 0
        self._resize()
        self.refresh()

    def sync_rows(self, rows: Mapping[str, Mapping[str, Cell]]) -> int:
        """Show exactly these rows, in this order; returns how many cells were written.

        Existing rows are patched cell by cell; the order changes only when the keys do.
        """
        keys = list(rows)
        if keys != self._rows:
            self._relayout(keys)
        written = 0
        for key, cells in rows.items():
            written += self._sync_row(key, cells)
        return written

    def _relayout(self, keys: list[str]) -> None:
        current = self.highlighted_key()
        for gone in set(self._rows) - set(keys):
            self._cells.pop(gone, None)
            self._strips.pop(gone, None)
        for key in keys:
            self._cells.setdefault(key, {})
        self._rows = keys
        self._index = {key: i for i, key in enumerate(keys)}
        if current in self._index:
            self.cursor_row = self._index[current]
        else:
            self.cursor_row = min(self.cursor_row, max(len(keys) - 1, 0))
        self._resize()
        self.refresh()

    def _sync_row(self, key: str, cells: Mapping[str, Cell]) -> int:
        shown = self._cells[key]
        written = 0
        for position, column in enumerate(self._columns):
            cell = cells.get(column.key, EMPTY)
            if shown.get(column.key) == cell:
                continue
            shown[column.key] = cell
            written += 1
            self._refresh_cell(key, position)
        if written:
            self._strips.pop(key, None)
            self.cells_written += written
        return written

    def _refresh_cell(self, key: str, position: int) -> None:
        y = self._index[key] + 1 - self.scroll_offset.y
        if 1 <= y < self.size.height:
            column = self._columns[position]
            self.refresh(Region(self._offsets[position], y, column.width, 1))

    def cell(self, row: str, column: str) -> Cell:
        return self._cells.get(row, {}).get(column, EMPTY)

    def cell_text(self, row: str, column: str) -> str:
        return self.cell(row, column).text

    def highlighted_key(self) -> str | None:
        if not self._rows:
            return None
        return self._rows[min(self.cursor_row, len(self._rows) - 1)]

    # ------------------------------------------------------------------ cursor

    def action_cursor_down(self) -> None:
        if self.cursor_row < len(self._rows) - 1:
            self.cursor_row += 1

    def action_cursor_up(self) -> None:
        if self.cursor_row > 0:
            self.cursor_row -= 1

    def watch_cursor_row(self, old: int, new: int) -> None:
        for index in (old, new):
            if 0 <= index < len(self._rows):
                self._strips.pop(self._rows[index], None)
                self.refresh_line(index + 1)
        if 0 <= new < len(self._rows):
            # Keep the row in view below the fixed header line.
            top = self.scroll_offset.y
            visible = max(self.size.height - 1, 1)
            if new < top:
                self.scroll_to(y=new, animate=False)
            elif new >= top + visible:
                self.scroll_to(y=new - visible + 1, animate=False)
            self.post_message(self.RowHighlighted(self, self._rows[new]))

    def on_focus(self) -> None:
        self._repaint_cursor()

    def on_blur(self) -> None:
        self._repaint_cursor()

    def _repaint_cursor(self) -> None:
        if 0 <= self.cursor_row < len(self._rows):
            self._strips.pop(self._rows[self.cursor_row], None)
            self.refresh_line(self.cursor_row + 1)

    # ------------------------------------------------------------------ painting

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles.clear()
        self._strips.clear()
        self._header = None

    def on_resize(self) -> None:
        self._strips.clear()
        self._header = None
        self._resize()

    def _resize(self) -> None:
        width = self._offsets[-1] + self._columns[-1].width if self._columns else 0
        self.virtual_size = Size(width, len(self._rows) + 1)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        if y == 0:
            if self._header is None:
                self._header = self._render_header(width)
            return self._header
        index = y - 1 + self.scroll_offset.y
        if index >= len(self._rows):
            return Strip.blank(width, self.rich_style)
        key = self._rows[index]
        strip = self._strips.get(key)
        if strip is None:
            strip = self._strips[key] = self._render_row(key, index, width)
        return strip

    def _render_header(self, width: int) -> Strip:
        style = self.get_component_rich_style("price-grid--header")
        cells = {column.key: Cell(column.label) for column in self._columns}
        return self._strip(cells, width, self.rich_style + style)

    def _render_row(self, key: str, index: int, width: int) -> Strip:
        base = self.rich_style
        if index == self.cursor_row and self.has_focus:
            base = base + self.get_component_rich_style("price-grid--cursor")
        return self._strip(self._cells[key], width, base)

    def _strip(self, cells: Mapping[str, Cell], width: int, base: Style) -> Strip:
        segments = [Segment(" ")]
        for column in self._columns:
            cell = cells.get(column.key, EMPTY)
            segments.append(Segment(_fit(cell.text, column), self._style(cell)))
            segments.append(Segment(" "))
        # Adjacent segments of one style become one: fewer escape sequences per repaint.
        return Strip(segments).adjust_cell_length(width).apply_style(base).simplify()

    def _style(self, cell: Cell) -> Style | None:
        style = self._styles.get(cell.roles)
        if style is None:
            style = Style()
            for role in cell.roles:
                style += self.get_component_rich_style(f"price-grid--{role}", partial=True)
            self._styles[cell.roles] = style
        if cell.link:
            return style + Style(link=cell.link)
        return style


def _fit(text: str, column: GridColumn) -> str:
    """`text` cut or padded to exactly the column's width in terminal cells."""
    width = column.width
    length = cell_len(text)
    if length > width:
        return set_cell_size(text, max(width - 1, 0)) + "…"
    if column.justify == "right":
        return " " * (width - length) + text
    return text + " " * (width - length)
