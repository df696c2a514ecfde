"""Bookmakers: choose the account's bookmakers from GET /bookmakers, starting from
GET /bookmakers/selected, and save them with PUT /bookmakers/selected/select."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import getters
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Input, SelectionList, Static
from textual.widgets.selection_list import Selection

from oddstui.api.errors import BadRequest, OddsApiError
from oddstui.tui.kit.check_list import CheckList
from oddstui.tui.kit.desk_footer import DeskFooter
from oddstui.tui.text import clean

if TYPE_CHECKING:
    from oddstui.tui.app import OddsApp
    from oddstui.tui.desk.hub import DeskHub


class BookmakersScreen(Screen[None]):
    """A searchable list of every bookmaker; `space` ticks, `ctrl+s` saves.

    | key | action |
    |---|---|
    | type | filter the list |
    | `space` | tick or untick the highlighted bookmaker |
    | `ctrl+s` | save the selection to the account |
    | `escape` | back (unsaved ticks are dropped) |
    """

    if TYPE_CHECKING:
        app = getters.app(OddsApp)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save", id="bookmakers-save"),
        Binding("escape", "app.back", "Back", id="bookmakers-back"),
        Binding("down", "focus_list", "List", show=False, id="bookmakers-list"),
    ]

    def __init__(self) -> None:
        super().__init__()
        #: Every bookmaker name (active ones first, then by name).
        self.names: list[str] = []
        self.inactive: set[str] = set()
        #: The ticked names, kept across filters.
        self.chosen: set[str] = set()
        #: What the account has now (as last read or saved).
        self.saved: set[str] = set()
        self._rebuilding = False

    @property
    def hub(self) -> DeskHub:
        return self.app.hub

    def compose(self) -> ComposeResult:
        yield Static("Bookmakers", classes="heading")
        yield Input(placeholder="Filter bookmakers…", id="bookmaker-filter")
        yield Static("Loading the bookmakers…", id="bookmaker-count")
        yield CheckList(id="bookmaker-list")
        yield DeskFooter()

    def on_mount(self) -> None:
        self.run_worker(
            self._load(), group="bookmakers", description="bookmakers", exit_on_error=False
        )

    async def _load(self) -> None:
        count = self.query_one("#bookmaker-count", Static)
        try:
            every = await self.hub.api.bookmakers()
            selected = await self.hub.api.selected_bookmakers()
        except OddsApiError as error:
            count.update(Text(f"Could not load the bookmakers: {clean(error)}"))
            return
        finally:
            self.hub.note_budget()
        self.inactive = {book.name for book in every if not book.active}
        self.names = sorted(
            (book.name for book in every), key=lambda n: (n in self.inactive, n.lower())
        )
        self.saved = set(selected.bookmakers)
        self.chosen = set(selected.bookmakers)
        self._rebuild()

    def _rebuild(self) -> None:
        query = self.query_one("#bookmaker-filter", Input).value.strip().lower()
        shown = [n for n in self.names if query in n.lower()]
        # Ticked ones first, so the current choice is in view.
        shown.sort(key=lambda n: n not in self.chosen)
        listing = self.query_one("#bookmaker-list", SelectionList)
        self._rebuilding = True
        try:
            listing.clear_options()
            listing.add_options(
                [Selection(self._prompt(name), name, name in self.chosen) for name in shown]
            )
        finally:
            self._rebuilding = False
        if listing.option_count:  # something is always highlighted, so space works at once
            listing.highlighted = 0
        self._show_count(len(shown))

    def _prompt(self, name: str) -> Content:
        text = clean(name) + (" (inactive)" if name in self.inactive else "")
        return Content(text)

    def _show_count(self, shown: int | None = None) -> None:
        text = Text(f"{len(self.chosen)} selected", style="bold")
        if shown is not None and shown != len(self.names):
            text.append(f" · {shown} of {len(self.names)} shown", style="dim")
        if self.chosen != self.saved:
            text.append(" · unsaved (ctrl+s saves)", style="italic")
        self.query_one("#bookmaker-count", Static).update(text)

    def on_input_changed(self, event: Input.Changed) -> None:
        if self.names:
            self._rebuild()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_focus_list()

    def action_focus_list(self) -> None:
        listing = self.query_one("#bookmaker-list", SelectionList)
        listing.focus()
        if listing.highlighted is None and listing.option_count:
            listing.highlighted = 0

    def on_selection_list_selected_changed(self, event: SelectionList.SelectedChanged[str]) -> None:
        if self._rebuilding:
            return
        listing = event.selection_list
        visible = {listing.get_option_at_index(i).value for i in range(listing.option_count)}
        self.chosen = (self.chosen - visible) | set(listing.selected)
        self._show_count()

    def action_save(self) -> None:
        if not self.chosen:
            self.notify("Choose at least one bookmaker.", severity="warning")
            return
        self.run_worker(
            self._save(sorted(self.chosen)),
            group="bookmakers",
            description="save bookmakers",
            exclusive=True,
            exit_on_error=False,
        )

    async def _save(self, names: list[str]) -> None:
        try:
            result = await self.hub.api.select_bookmakers(names)
        except BadRequest as error:
            self.notify(f"Not saved: {clean(error)}", severity="error", markup=False)
            return
        except OddsApiError as error:
            self.notify(f"Not saved: {clean(error)}", severity="error", markup=False)
            return
        finally:
            self.hub.note_budget()
        self.saved = set(result.bookmakers)
        self.chosen = set(result.bookmakers)
        if self.hub.feed is not None:
            self.hub.feed.keep_bookmakers(list(result.bookmakers))
        self._show_count()
        self.notify(
            f"Saved: {len(self.saved)} bookmakers on the account; the feed follows.", markup=False
        )
