"""The one-line text filter of a screen's table (`F` on the table opens it)."""

from __future__ import annotations

from typing import ClassVar, Protocol

from textual.binding import Binding, BindingType
from textual.widgets import Input


class Filterable(Protocol):
    """What the filter needs of its table (the patch table), named here so the two modules do
    not import each other."""

    query_text: str

    def filter_text(self, query: str) -> None: ...

    def focus(self, scroll_visible: bool = True) -> object: ...


class TableFilter(Input):
    """Typing filters the table at once; `enter` goes back to the table keeping the filter,
    `escape` clears it. It stays in view while a filter is on, so the rows' absence is explained.
    """

    # An `Input` draws a tall border when focused: in one line that left no room for the text.
    DEFAULT_CSS = """
    TableFilter, TableFilter:focus { display: none; height: 1; border: none; padding: 0 1; }
    TableFilter.-on { display: block; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "clear", "Clear the filter", id="table-filter-clear"),
    ]

    def __init__(self) -> None:
        super().__init__(placeholder="find: words in any column", id="table-filter")
        self.target: Filterable | None = None

    def open(self, table: Filterable) -> None:
        self.target = table
        self.value = table.query_text
        self.add_class("-on")
        self.display = True
        # Now, not after a refresh as `focus()` would: keys typed right after `F` are queued
        # already, and must reach the filter, not the board ("Lukas" ran `u` and `k`).
        self.screen.set_focus(self)

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        if self.target is not None:
            self.target.filter_text(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.set_class(bool(self.value), "-on")
        self.display = bool(self.value)
        if self.target is not None:
            self.target.focus()

    def action_clear(self) -> None:
        self.value = ""
        if self.target is not None:
            self.target.filter_text("")
            self.target.focus()
        self.remove_class("-on")
        self.display = False
