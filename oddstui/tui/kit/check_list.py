"""A `SelectionList` whose ticked rows carry a check mark, not just a colour, and whose `space`
works as soon as it has the focus."""

from __future__ import annotations

from rich.segment import Segment
from textual import events
from textual.strip import Strip
from textual.widgets import SelectionList
from textual.widgets._toggle_button import ToggleButton

#: What the box of a ticked and of an unticked row shows.
TICKED, UNTICKED = "✓", " "


class CheckList(SelectionList[str]):
    """Rows read `▐✓▌ name` when ticked and `▐ ▌ name` when not (colour-blind and NO_COLOR
    terminals see the difference); focusing it highlights the first row so `space` ticks."""

    def _on_focus(self, event: events.Focus) -> None:
        super()._on_focus(event)
        if self.highlighted is None and self.option_count:
            self.highlighted = 0

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        segments = list(strip)
        index = int(self.scroll_offset.y) + y
        if index >= self.option_count or len(segments) < 2:
            return strip
        box = segments[1]
        if box.text != ToggleButton.BUTTON_INNER:
            return strip
        value = self.get_option_at_index(index).value
        mark = TICKED if value in self._selected else UNTICKED
        segments[1] = Segment(mark, box.style, box.control)
        return Strip(segments, strip.cell_length)
