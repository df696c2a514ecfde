"""The footer of every screen: the screen's own keys first, and only as many as fit.

Textual's footer lays every key in a row and docks the command-palette key over its right end,
so at 80 columns keys were cut and `^p palette` overwrote them. Here the palette key is left to
the help (`?` lists ctrl+p) and the app-wide keys give way, last first, when space is short.
"""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

#: The keys that stay when nothing else fits: what gets a lost trader out.
ESSENTIAL = ("help", "back", "quit")


class DeskFooter(Footer):
    """A compact footer with no palette key that drops keys rather than cut them."""

    def __init__(self) -> None:
        super().__init__(compact=True, show_command_palette=False)
        self._width = 0

    def on_resize(self, event: events.Resize) -> None:
        if event.size.width != self._width:
            self._width = event.size.width
            self.call_after_refresh(self.recompose)

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        shown: dict[str, tuple[Binding, bool, str]] = {}
        for _node, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show and binding.action not in shown:
                shown[binding.action] = (binding, enabled, tooltip)
        for binding, enabled, tooltip in self.fitting(list(shown.values())):
            yield FooterKey(
                binding.key,
                self.app.get_key_display(binding),
                binding.description,
                binding.action,
                disabled=not enabled,
                tooltip=tooltip,
            ).data_bind(compact=Footer.compact)

    def fitting(self, keys: list[tuple[Binding, bool, str]]) -> list[tuple[Binding, bool, str]]:
        """`keys` less the app-wide ones that do not fit, dropped from the right."""
        width = self.size.width or 10_000

        def cost(item: tuple[Binding, bool, str]) -> int:
            binding = item[0]
            return len(self.app.get_key_display(binding)) + len(binding.description) + 2

        kept = list(keys)
        droppable = [item for item in kept if item[0].id is None or item[0].id not in ESSENTIAL]
        while droppable and sum(cost(item) for item in kept) > width:
            kept.remove(droppable.pop())
        return kept
