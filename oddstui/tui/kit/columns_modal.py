"""Choose a table's columns (`c` on any table): ticked columns are shown when they fit."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import SelectionList, Static
from textual.widgets.selection_list import Selection

from oddstui.tui.kit.check_list import CheckList

if TYPE_CHECKING:
    from oddstui.tui.kit.patch_table import PatchTable


class ColumnsModal(ModalScreen[None]):
    """`space` shows or hides the highlighted column at once; `escape` closes."""

    DEFAULT_CSS = """
    ColumnsModal { align: center middle; }
    ColumnsModal > Vertical {
        width: 44; height: auto; max-height: 90%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    ColumnsModal SelectionList { height: auto; max-height: 20; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,c", "dismiss", "Close", id="columns-close"),
    ]

    def __init__(self, table: PatchTable) -> None:
        super().__init__()
        self.table = table

    def compose(self) -> ComposeResult:
        table = self.table
        shown = set(table.shown_columns())
        choices = [
            Selection(self._label(column.key, column.label, column.key in shown), column.key,
                      column.key not in table.prefs.hidden)
            for column in table.specs
        ]  # fmt: skip
        with Vertical():
            yield Static(Text("Columns", style="bold"))
            yield CheckList(*choices, id="columns-list")
            yield Static(Text("space shows/hides · escape closes", style="dim"))

    @staticmethod
    def _label(key: str, label: str, fits: bool) -> Text:
        text = Text(label or key)
        if not fits:
            text.append("  (no room at this width)", style="dim")
        return text

    def on_mount(self) -> None:
        self.query_one(SelectionList).focus()

    def on_selection_list_selected_changed(self, event: SelectionList.SelectedChanged[str]) -> None:
        event.stop()
        chosen = set(event.selection_list.selected)
        specs = self.table.specs
        self.table.hide_columns(column.key for column in specs if column.key not in chosen)
