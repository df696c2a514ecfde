"""The inline filter bar of a REST board: each input applies on a pause in typing, a refused value
keeps the last good one and says why, `f` goes to the filters and `escape` back to the table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual.timer import Timer
from textual.widgets import Input, Static

from oddstui.tui.kit.patch_table import PatchTable


class FilterBar:
    """A mixin of `RestBoardScreen`: the screen provides the attributes and methods below."""

    #: Seconds of quiet typing before a filter redraws the board.
    FILTER_PAUSE: ClassVar[float] = 0.25
    #: Why the last filter input was refused, or "".
    filter_error: str = ""
    _redraw_timer: Timer | None = None

    # Provided by the screen (annotations only, so nothing here shadows the screen's own).
    query_one: Any
    query: Any
    focused: Any
    set_timer: Any
    apply_filter: Callable[[str, str, bool], bool]
    new_question: Callable[[], None]
    _fetch_if_due: Callable[..., None]
    resort: Callable[[], None]

    def on_input_changed(self, event: Input.Changed) -> None:
        self._filter_input(event.input, event.value, submitted=False)
        event.stop()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self._filter_input(event.input, event.value, submitted=True):
            self.query_one(PatchTable).focus()

    def _filter_input(self, field: Input, value: str, *, submitted: bool) -> bool:
        if field.id is None or not field.id.startswith("filter-"):
            return False
        name = field.id.removeprefix("filter-")
        try:
            refetch = self.apply_filter(name, value, submitted)
        except ValueError as error:
            self.filter_error = str(error)
        else:
            self.filter_error = ""
            if refetch:
                self.new_question()
                self._fetch_if_due(force=True)
            self._redraw_soon()
        field.set_class(bool(self.filter_error), "-invalid")
        line = self.query_one("#filter-error", Static)
        line.update(
            Text(f"✗ {self.filter_error} (keeping the last good filter)")
            if self.filter_error
            else ""
        )
        line.display = bool(self.filter_error)
        return not self.filter_error

    def _redraw_soon(self) -> None:
        """Redraw once typing pauses, not on every key of "football"."""
        if self._redraw_timer is not None:
            self._redraw_timer.stop()
        self._redraw_timer = self.set_timer(self.FILTER_PAUSE, self._filter_redraw)

    def _filter_redraw(self) -> None:
        self._redraw_timer = None
        self.resort()

    def action_edit_filters(self) -> None:
        self.query(Input).first().focus()

    def action_leave_filters(self) -> None:
        if isinstance(self.focused, Input):
            self.query_one(PatchTable).focus()

