"""The help screen (`?`): every key that works where the trader was."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

#: Keys handled by widgets rather than bindings, listed so the help is complete.
WIDGET_KEYS = (
    ("↑ ↓ / j k", "move the cursor"),
    ("enter", "open the highlighted row"),
    ("ctrl+p, :", "command palette: jump to a screen, sport, league or event"),
)


class HelpModal(ModalScreen[None]):
    """A table of keys; escape, q or ? closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "dismiss", "Close", id="help-close"),
    ]

    def __init__(self, keys: list[tuple[str, str]]) -> None:
        super().__init__()
        #: (key, what it does) pairs to list.
        self.keys = keys

    def compose(self) -> ComposeResult:
        table = Table(box=None, show_header=True, header_style="bold", expand=False)
        table.add_column("key", no_wrap=True)
        table.add_column("does")
        seen: set[str] = set()
        for key, description in [*self.keys, *WIDGET_KEYS]:
            if key in seen:
                continue
            seen.add(key)
            table.add_row(Text(key, style="bold"), Text(description))
        with VerticalScroll(id="help-body"):
            yield Static(Text("Keys", style="bold"), classes="help-title")
            yield Static(table)
            yield Static(Text("escape closes this help", style="dim"))
