"""The markets × bookmakers grid, patched cell by cell, one narrow widget per column.

A `DataTable.update_cell` repaints the whole table. Textual writes a repaint as the runs of a
line that lie between widget edges, so a grid drawn as one widget still rewrites a whole row
for one changed price (a hyperlink and a dozen colour codes). Here each column is its own
Line-API widget of fixed width: a changed price marks one cell of one column dirty, and the
terminal receives that cell only, a few dozen bytes.

Too narrow for every column, the grid hides the least needed ones (the highest `priority`, a
whole priority at a time) and says so at the end of the header: `+3 more ›`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.color import Color
from textual.containers import Horizontal, VerticalScroll
from textual.geometry import Region
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from oddstui.tui.event.grid_cells import (
    EMPTY,
    Cell,
    fit,
    fit_text,
    fitting_columns,
    hidden_marker,
    readable_on,
    safe_link,
)
from oddstui.tui.event.grid_views import GridColumnView, GridHeader
from oddstui.tui.kit.columns import Column

__all__ = ["Cell", "PriceGrid", "safe_link"]  # the cells' types, for callers

#: The cell styles, named by the component classes that colour them (`price-grid--<role>`).
ROLES = ("best", "up", "down", "value", "stale", "muted", "link")


class PriceGrid(Widget, can_focus=True):
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
    | `price-grid--value` | a price above the fair price (the edge toggle) |
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
        Binding("down", "cursor_down", "Down", show=False, id="grid-cursor-down"),
        Binding("up", "cursor_up", "Up", show=False, id="grid-cursor-up"),
    ]
    DEFAULT_CSS = """
    PriceGrid { height: 1fr; width: auto; }
    PriceGrid > VerticalScroll { height: 1fr; width: auto; }
    PriceGrid Horizontal { height: auto; width: auto; }
    """

    cursor_row: reactive[int] = reactive(0, init=False)
    """Index of the highlighted row."""

    class RowHighlighted(Message):
        """The cursor moved to another row."""

        def __init__(self, grid: PriceGrid, key: str) -> None:
            super().__init__()
            self.grid = grid
            self.key = key

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._columns: list[Column] = []
        self._shown: list[Column] = []
        self._width: int | None = None  # cells available, once told (`fit_width`)
        self._views: dict[str, GridColumnView] = {}
        self._rows: list[str] = []
        self._index: dict[str, int] = {}
        self._cells: dict[str, dict[str, Cell]] = {}
        self._styles: dict[tuple[tuple[str, ...], Style], Style] = {}
        #: Markets side by side: (first column key, label) of each group of columns.
        self.groups: dict[str, str] = {}
        self._composed = False
        #: Cells written since the grid was made (read by tests and the benchmark).
        self.cells_written = 0

    def compose(self) -> ComposeResult:
        self._composed = True
        yield GridHeader(self)
        with VerticalScroll(can_focus=False):
            yield Horizontal(*self._views.values())

    # ------------------------------------------------------------------ data

    @property
    def columns(self) -> list[Column]:
        return list(self._columns)

    @property
    def shown_columns(self) -> list[Column]:
        return list(self._shown)

    @property
    def hidden_columns(self) -> list[Column]:
        return [column for column in self._columns if column not in self._shown]

    def fit_width(self, width: int) -> None:
        """Show the columns that fit in `width` cells; the rest are hidden and marked."""
        self._width = width
        self._fit()

    def _fit(self) -> None:
        columns = self._columns
        shown = columns if self._width is None else fitting_columns(columns, self._width)
        if shown == self._shown:
            return
        self._shown = list(shown)
        for column in columns:
            self._views[column.key].display = column in shown
        if self._composed:
            self.query_one(GridHeader).refresh(layout=True)

    @property
    def row_keys(self) -> list[str]:
        return list(self._rows)

    def set_columns(
        self,
        columns: Sequence[Column],
        groups: Sequence[tuple[str, str]] = (),
        *,
        keep_rows: bool = False,
    ) -> None:
        """A new data set: these columns, and no rows; `groups` heads each market's columns
        with its name when several stand side by side (a second header line).

        With `keep_rows` (the rows are the same bookmakers, only some columns changed, as when
        a market beside the stepped one moves its line or leaves), the rows, the cursor and the
        columns that stay are kept as drawn: only the new columns are mounted and painted."""
        columns = list(columns)
        old = self._views
        self._columns = columns
        self.groups = dict(groups)
        if keep_rows:
            keys = {column.key for column in columns}
            for cells in self._cells.values():
                for key in [key for key in cells if key not in keys]:
                    del cells[key]
        else:
            self._rows, self._index, self._cells = [], {}, {}
            self.cursor_row = 0
        self._views = self._column_views(columns, old if keep_rows else {})
        self._shown = []
        self._fit()
        if self._composed:
            self._mount_views(list(old.values()))
            header = self.query_one(GridHeader)
            header.styles.height = 2 if self.groups else 1
            header.refresh(layout=True)

    def _column_views(
        self, columns: list[Column], old: dict[str, GridColumnView]
    ) -> dict[str, GridColumnView]:
        """A view per column: the old one where the column is unchanged and the kept columns
        keep their order (the strip is not reordered), else a new one."""
        kept = [old[c.key] for c in columns if c.key in old and old[c.key].column == c]
        if kept != [view for view in old.values() if view in kept]:
            kept = []
        views = {view.column.key: view for view in kept}
        return {
            column.key: views.get(column.key) or GridColumnView(self, column) for column in columns
        }

    def _mount_views(self, old: list[GridColumnView]) -> None:
        """Put the column views in the strip: the ones that stay are left where they are."""
        strip = self.query_one(Horizontal)
        new = list(self._views.values())
        staying = set(new) & set(old)
        strip.remove_children([view for view in old if view not in staying])
        for index, view in enumerate(new):
            if view in staying:
                continue
            following = next((v for v in new[index + 1 :] if v in staying), None)
            if following is not None:
                strip.mount(view, before=following)
            else:
                strip.mount(view)

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
        for key in keys:
            self._cells.setdefault(key, {})
        self._rows = keys
        self._index = {key: i for i, key in enumerate(keys)}
        if current in self._index:
            self.cursor_row = self._index[current]
        else:
            self.cursor_row = min(self.cursor_row, max(len(keys) - 1, 0))
        for view in self._views.values():
            view.set_rows(len(keys))

    def _sync_row(self, key: str, cells: Mapping[str, Cell]) -> int:
        shown = self._cells[key]
        index = self._index[key]
        written = 0
        for column in self._columns:
            cell = cells.get(column.key, EMPTY)
            if shown.get(column.key) == cell:
                continue
            shown[column.key] = cell
            written += 1
            self._views[column.key].repaint_cell(index)
        self.cells_written += written
        return written

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
        self._repaint_row(old)
        self._repaint_row(new)
        if 0 <= new < len(self._rows):
            body = self.query_one(VerticalScroll)
            body.scroll_to_region(Region(0, new, 1, 1), animate=False, immediate=True)
            self.post_message(self.RowHighlighted(self, self._rows[new]))

    def on_focus(self) -> None:
        self._repaint_row(self.cursor_row)

    def on_blur(self) -> None:
        self._repaint_row(self.cursor_row)

    def _repaint_row(self, index: int) -> None:
        if 0 <= index < len(self._rows):
            for view in self._views.values():
                view.repaint_cell(index)

    # ------------------------------------------------------------------ painting

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles.clear()
        for view in self._views.values():
            view.forget()
            view.refresh()

    def render_header(self, width: int) -> Strip:
        style = self.rich_style + self.get_component_rich_style("price-grid--header")
        segments = [Segment(" " + fit(column.label, column), style) for column in self._shown]
        marker = hidden_marker(len(self._columns) - len(self._shown))
        if marker:
            muted = self.get_component_rich_style("price-grid--muted", partial=True)
            segments.append(Segment(" " + marker, style + muted))
        return Strip(segments).adjust_cell_length(width, style)

    def render_groups(self, width: int) -> Strip:
        """Each market's name over its columns, ruled to its end: ` ML ─── Spread -0.5 ─`."""
        style = self.rich_style + self.get_component_rich_style("price-grid--header")
        segments: list[Segment] = []
        run, label = 0, ""

        def close() -> None:
            if run:
                text = f" {label} " if label else ""
                cut = fit_text(text, run)
                rule = "─" * (run - cell_len(cut)) if label else " " * run
                segments.append(Segment(cut + rule, style))

        for column in self._shown:
            if column.key in self.groups:
                close()
                run, label = 0, self.groups[column.key]
            run += column.width + 1
        close()
        return Strip(segments).adjust_cell_length(width, style)

    def render_cell(self, column: Column, index: int) -> Strip:
        """One cell with the gap before it, as a strip of `column.width + 1` cells."""
        base = self.rich_style
        if index == self.cursor_row and self.has_focus:
            base = base + self.get_component_rich_style("price-grid--cursor")
        if index >= len(self._rows):
            return Strip([Segment(" " * (column.width + 1), base)], column.width + 1)
        cell = self._cells[self._rows[index]].get(column.key, EMPTY)
        style = base + self._style(cell, base)
        if cell.link:
            segments = [Segment(" ", base), Segment(fit(cell.text, column), style)]
        else:
            segments = [Segment(" " + fit(cell.text, column), style)]
        return Strip(segments, column.width + 1)

    def _style(self, cell: Cell, base: Style) -> Style:
        key = (cell.roles, base)
        style = self._styles.get(key)
        if style is None:
            style = self._styles[key] = self._roles_style(cell.roles, base)
        if cell.link:
            return style + Style(link=cell.link)
        return style

    def _roles_style(self, roles: tuple[str, ...], base: Style) -> Style:
        """The roles' styles on top of each other, with their backgrounds blended over the
        grid's (a partial style would drop their transparency and paint `$success 20%` as
        solid `$success`) and the text kept readable on the result: a price rising (the rise
        colour) on a best cell (tinted the same hue) must not vanish into it, nor a dimmed
        price on the cursor row (`base` carries the cursor's tint there)."""
        style = Style()
        if not roles:
            return style
        background = Color.from_rich_color(base.bgcolor) if base.bgcolor else Color(0, 0, 0)
        tinted = False
        for role in roles:
            name = f"price-grid--{role}"
            style += self.get_component_rich_style(name, partial=True)
            layer = self.get_component_styles(name)
            if layer.has_rule("background"):
                background, tinted = background + layer.background, True
        foreground = Color.from_rich_color(style.color or base.color)
        fallbacks = [Color.from_rich_color(base.color).rgb] if base.color else []
        fallbacks += [(0, 0, 0), (255, 255, 255)]
        readable = readable_on(foreground.rgb, background.rgb, fallbacks)
        colours = Style(color=Color(*readable).rich_color)
        if tinted:
            colours += Style(bgcolor=background.rich_color)
        return style + colours
