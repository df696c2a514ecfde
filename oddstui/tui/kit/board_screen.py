"""What every board screen shares: the banner, the status bar, subscribing to the hub."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import getters
from textual.app import ComposeResult, ScreenStackError
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen, Screen
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from oddstui.tui.desk.state import ChangeSet
from oddstui.tui.kit.columns_modal import ColumnsModal
from oddstui.tui.kit.desk_footer import DeskFooter
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.kit.status_bar import FeedBanner, StatusBar, local_clock
from oddstui.tui.kit.table_filter import TableFilter
from oddstui.tui.messages import EventChosen, WatchToggled

if TYPE_CHECKING:
    from oddstui.tui.app import OddsApp
    from oddstui.tui.desk.hub import DeskHub


class BoardScreen(Screen[None]):
    """A screen fed by the hub.

    It subscribes to the hub's change signal and one-second tick in `on_mount`, draws itself
    at once, patches itself while visible, and catches up once in `on_screen_resume` if it
    missed changes while hidden.

    | key | action |
    |---|---|
    | `j` / `k` | down / up, as the arrows |
    | `w` | star or unstar the highlighted event |
    """

    if TYPE_CHECKING:
        app = getters.app(OddsApp)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor_down", "Down", show=False, id="cursor-down"),
        Binding("k", "cursor_up", "Up", show=False, id="cursor-up"),
        Binding("w", "toggle_watch", "Star", id="toggle-watch"),
    ]

    #: The title shown on the screen's first line.
    heading = ""

    def __init__(self) -> None:
        super().__init__()
        #: True when changes arrived while the screen was hidden.
        self.missed_changes = False

    @property
    def hub(self) -> DeskHub:
        return self.app.hub

    def compose(self) -> ComposeResult:
        yield FeedBanner()
        yield Static(Text(self.heading), classes="heading")
        yield from self.compose_body()
        yield TableFilter()
        yield StatusBar()
        yield DeskFooter()

    def compose_body(self) -> ComposeResult:
        yield from ()

    def on_mount(self) -> None:
        self.hub.changed.subscribe(self, self._changes_published)
        self.hub.ticked.subscribe(self, self._ticked)
        self.redraw()
        self._show_feed()

    def on_patch_table_columns_wanted(self, message: PatchTable.ColumnsWanted) -> None:
        message.stop()
        self.app.push_screen(ColumnsModal(message.table))

    def on_screen_resume(self) -> None:
        if self.missed_changes:
            self.missed_changes = False
            self.redraw()
        self._show_feed()

    @property
    def on_top(self) -> bool:
        """True when this screen is the top one. Under a modal (help, palette) it is still seen,
        dimmed, but repainting a screen through a modal's see-through background costs a
        full-terminal render each time, so it waits and catches up when the modal closes."""
        try:
            return self.app.screen is self
        except ScreenStackError:
            return False

    @property
    def under_modal(self) -> bool:
        """True when this screen is seen, dimmed, right under a modal (help, a ticket)."""
        try:
            stack = self.app.screen_stack
        except ScreenStackError:
            return False
        return len(stack) >= 2 and stack[-2] is self and isinstance(stack[-1], ModalScreen)

    def _changes_published(self, changes: ChangeSet) -> None:
        if not self.on_top:
            self.missed_changes = True
            if changes.feed and self.under_modal:
                self._show_feed()  # the feed's state is never shown stale
            return
        with self.app.batch_update():
            if changes.feed:
                self._show_feed()
            self.patch(changes)

    def _ticked(self, now: float) -> None:
        # Under a modal, the status bar and the match clocks still move: once a second is cheap
        # (prices catch up when the modal closes).
        if not self.on_top and not self.under_modal:
            return
        with self.app.batch_update():
            self._show_status(now)
            self.tick(now)

    def _show_feed(self) -> None:
        status = self.hub.status
        self.query_one(FeedBanner).show(status)
        self.set_class(not status.trustworthy, "-stale")
        self._show_status(self.hub.now())

    def _show_status(self, now: float) -> None:
        self.query_one(StatusBar).show(self.hub.status, now, local_clock(now))

    # Subclasses draw themselves with these three.
    def redraw(self) -> None:
        """Draw everything from the hub's board (on mount and after being hidden)."""

    def patch(self, changes: ChangeSet) -> None:
        """Rewrite only what `changes` touched."""
        self.redraw()

    def tick(self, now: float) -> None:
        """Advance what moves with time (match clocks)."""

    def selected_event_id(self) -> int | None:
        """The event under the cursor, for `w` and `enter`."""
        return None

    def action_cursor_down(self) -> None:
        self._move_cursor("action_cursor_down")

    def action_cursor_up(self) -> None:
        self._move_cursor("action_cursor_up")

    def _move_cursor(self, action: str) -> None:
        focused = self.focused
        if focused is not None and hasattr(focused, action):
            getattr(focused, action)()

    def action_toggle_watch(self) -> None:
        event_id = self.selected_event_id()
        if event_id is None:
            self.notify("Highlight an event to star it.", severity="warning")
            return
        self.post_message(WatchToggled(event_id))

    def show_missing(self, key: Any, what: str) -> None:
        """Say in the `.empty` line that `what` is loading, or why it could not be loaded."""
        error = self.hub.errors.get(key)
        empty = self.query_one(".empty", Static)
        empty.update(Text(f"Could not load {what}: {error}" if error else f"Loading {what}…"))
        empty.display = True
        for table in self.query(PatchTable):
            table.display = False

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A failed load: said on the screen where the data would be, and once as a toast."""
        if event.state != WorkerState.ERROR:
            return
        self.app.report_worker(event.worker)

    def open_event(self, event_id: int) -> None:
        self.post_message(EventChosen(event_id))
