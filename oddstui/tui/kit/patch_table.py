"""A DataTable that is patched cell by cell, sorts by any column, filters by text and drops its
least needed columns when the terminal is narrow."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.strip import Strip
from textual.widgets import DataTable

from oddstui.tui.kit.columns import Column, as_column, fit, make_room
from oddstui.tui.kit.table_prefs import TablePrefs
from oddstui.tui.kit.table_rows import TableRows


class PatchTable(TableRows):
    """Rows and columns have keys; `sync_row` rewrites only the cells whose text changed.

    | method | does |
    |---|---|
    | `sync_row` | add a row, or patch the cells of an existing one that changed |
    | `keep_rows` | remove every row whose key is not given |
    | `order_rows` | the screen's own order; a sort the user chose applies on top of it |

    | key | action |
    |---|---|
    | `o` / click a header | sort by the next column / the clicked one (▲ or ▼ in its header); |
    |  | a second click reverses, a third goes back to the screen's order |
    | `O` | reverse the sort |
    | `F` | filter the rows by text |
    | `c` | choose the columns |

    A table whose rows its screen orders (the trading boards) is a `ScreenOrderedTable`: it has
    no sort keys, so the screen's own `o` is the only one on that screen.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("o", "sort_next", "Sort by the next column", show=False, id="table-sort"),
        Binding("O", "sort_reverse", "Reverse the sort", show=False, id="table-sort-reverse"),
        Binding("F", "filter", "Find rows by text", show=False, id="table-filter"),
        # Only while a find is on (`check_action`): otherwise escape goes on up (back).
        Binding("escape", "clear_find", "Clear the find", show=False, id="table-find-clear"),
        Binding("c", "choose_columns", "Choose the columns", show=False, id="table-columns"),
    ]

    def set_columns(self, columns: Iterable[Column | tuple[str, str, int | None]]) -> None:
        """Declare the columns once: `Column`s, or (key, label, fixed width) always shown."""
        self.specs = [as_column(column) for column in columns]
        if self._laid_out:
            self._relayout(force=True)
            return
        # Declared in compose: every column at its own width until the table's width is known.
        self.column_layout = [(column.key, column.width) for column in self.specs]
        for column in self.specs:
            self.add_column(Text(column.label), key=column.key, width=column.width)

    #: False until mounted: the user's choices are read then.
    _laid_out = False

    def on_resize(self, event: events.Resize) -> None:
        self._relayout()

    def on_mount(self) -> None:
        store = getattr(self.app, "table_prefs", None)
        if store is not None:
            known = {column.key for column in self.specs}
            prefs = store.get(self.prefs_name)
            if prefs.sort not in known:
                prefs = TablePrefs(None, False, prefs.hidden & known)
            self.prefs = TablePrefs(prefs.sort, prefs.descending, prefs.hidden & known)
        self._laid_out = True
        self._relayout(force=True)

    @property
    def prefs_name(self) -> str:
        """The name the table's choices are kept under: its id, else its screen's class."""
        return self.id or type(self.screen).__name__.lower()

    # ------------------------------------------------------------------ columns

    #: The header ends in `+N more ›` when columns are hidden (the trading boards' tables).
    SAYS_MORE: ClassVar[bool] = False
    #: What the header ends in ("" when every column is shown or the table does not say).
    more_mark = ""

    def _relayout(self, *, force: bool = False) -> None:
        width = self.size.width - self.styles.scrollbar_size_vertical
        available = width if width > 0 else 10_000
        chosen = fit(self.specs, available, self.prefs.hidden)
        mark = more_mark(len(self.specs) - len(chosen)) if self.SAYS_MORE else ""
        if mark and not make_room(chosen, available, len(mark) + 1):
            chosen = fit(self.specs, available - len(mark) - 1, self.prefs.hidden)
            mark = more_mark(len(self.specs) - len(chosen))
        layout = [(column.key, size) for column, size in chosen]
        if not self._laid_out:
            return
        if mark != self.more_mark:
            self.more_mark = mark
            self.refresh()
        if force or layout != self.column_layout:
            self.lay_out(layout)
            self.apply_order()

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        mark = self.more_mark
        width = min(strip.cell_length, self.scrollable_content_region.width)
        if y or not self.show_header or not mark or width <= len(mark) + 1:
            return strip
        style = self.get_component_rich_style("datatable--header")
        tail = Strip([Segment(f"{mark} ", style + Style(dim=True))])
        return Strip.join([strip.crop(0, width - len(mark) - 1), tail])

    def header_label(self, column: Column, width: int) -> Text:
        if column.key != self.prefs.sort:
            return Text(column.label)
        arrow = "▼" if self.prefs.descending else "▲"
        if len(column.label) + 2 <= width:
            arrow = " " + arrow
        return Text(column.label[: max(width - len(arrow), 1)] + arrow, style="bold")

    def hide_columns(self, hidden: Iterable[str]) -> None:
        self._choose(sort=self.prefs.sort, descending=self.prefs.descending, hidden=hidden)

    # ------------------------------------------------------------------ sorting and filtering

    def sort_by(self, column: str | None, descending: bool = False) -> None:
        self._choose(sort=column, descending=descending, hidden=self.prefs.hidden)

    def action_sort_next(self) -> None:
        shown = self.shown_columns()
        current = self.prefs.sort
        following = shown.index(current) + 1 if current in shown else 0
        self.sort_by(shown[following] if following < len(shown) else None)

    def action_sort_reverse(self) -> None:
        if self.prefs.sort is None:
            self.sort_by(self.shown_columns()[0], descending=True)
        else:
            self.sort_by(self.prefs.sort, not self.prefs.descending)

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        event.stop()
        column = event.column_key.value
        if column != self.prefs.sort:
            self.sort_by(column)
        elif not self.prefs.descending:
            self.sort_by(column, descending=True)
        else:
            self.sort_by(None)

    def filter_text(self, query: str) -> None:
        """Show only the rows with every word of `query` in one of their cells."""
        if query != self.query_text:
            self.query_text = query
            self.apply_order()
            self.post_message(self.TextFiltered(self))

    async def _on_key(self, event: events.Key) -> None:
        # Keys typed right after `F` reached the table before the filter took the focus (the
        # app hands each key to the widget focused when it arrives): they are the filter's.
        focused = self.screen.focused
        if focused is not None and focused is not self and getattr(focused, "target", None) is self:
            event.stop()
            event.prevent_default()
            focused.post_message(events.Key(event.key, event.character))
            return
        if any(b.action == "filter" for b in self._bindings.key_to_bindings.get(event.key, ())):
            # Opened here, not when the key has bubbled up to the app's bindings: by then the
            # keys typed after it were handled by the table already.
            event.stop()
            event.prevent_default()
            self.action_filter()
            return
        await super()._on_key(event)

    def action_filter(self) -> None:
        from oddstui.tui.kit.table_filter import TableFilter

        found = self.screen.query(TableFilter)
        if found:
            found.first().open(self)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "clear_find":
            return bool(self.query_text)
        return True

    def action_clear_find(self) -> None:
        """`escape` after a confirmed find (`enter`) clears it, as in the find line itself."""
        from oddstui.tui.kit.table_filter import TableFilter

        found = self.screen.query(TableFilter)
        if found and found.first().target is self:
            found.first().action_clear()
        else:
            self.filter_text("")

    class TextFiltered(Message):
        """The find filter's text changed: a screen that counts its rows counts again."""

        def __init__(self, table: PatchTable) -> None:
            super().__init__()
            self.table = table

    class ColumnsWanted(Message):
        """The trader asked to choose the table's columns: its screen opens the chooser."""

        def __init__(self, table: PatchTable) -> None:
            super().__init__()
            self.table = table

    def action_choose_columns(self) -> None:
        self.post_message(self.ColumnsWanted(self))

    def _choose(self, *, sort: str | None, descending: bool, hidden: Iterable[str]) -> None:
        prefs = TablePrefs(sort, descending, frozenset(hidden))
        if prefs == self.prefs:
            return
        self.prefs = prefs
        store = getattr(self.app, "table_prefs", None)
        if store is not None:
            try:
                store.put(self.prefs_name, prefs)
            except OSError as error:
                self.notify(f"Could not keep the table's choice: {error.strerror}", timeout=5)
        self._relayout(force=True)


def more_mark(hidden: int) -> str:
    """What a table's header ends in when `hidden` columns are not shown."""
    return f"+{hidden} more ›" if hidden else ""


def bindings_without(cls: type, keys: set[str]) -> list[BindingType]:
    """`cls`'s bindings as Textual merges them (a subclass's key replaces its bases'), less
    those of `keys`: for a subclass declared with `inherit_bindings=False`."""
    merged: dict[str, list[Binding]] = {}
    for base in reversed(cls.__mro__):
        own: dict[str, list[Binding]] = {}
        for binding in Binding.make_bindings(base.__dict__.get("BINDINGS", ())):
            own.setdefault(binding.key, []).append(binding)
        merged.update(own)
    return [binding for key, found in merged.items() if key not in keys for binding in found]


class ScreenOrderedTable(PatchTable, inherit_bindings=False):
    """A `PatchTable` whose rows its screen orders (a trading board sorts by its own keys, `o`
    cycling them): every key of a `PatchTable` but the column sort keys. A header click still
    sorts by that column."""

    BINDINGS: ClassVar[list[BindingType]] = bindings_without(PatchTable, {"o", "O"})
    SAYS_MORE = True
