"""Search (`/`): type three letters or more, pick an event, open it."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from oddstui.api.errors import OddsApiError
from oddstui.api.models import Event
from oddstui.api.rest import ApiClient
from oddstui.tui.desk.wire_views import event_view
from oddstui.tui.kit import event_fields
from oddstui.tui.text import clean

#: The service needs this many characters (it answers 400 below).
MIN_QUERY = 3
#: Seconds of quiet typing before the query is sent (one request per pause, not per key).
DEBOUNCE = 0.3


class SearchModal(ModalScreen[int | None]):
    """Events matching a text; `enter` or a click opens one, escape cancels.

    | key | action |
    |---|---|
    | `down` | from the input into the results |
    | `enter` | open the highlighted event |
    | `escape` | cancel |
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="search-cancel"),
        Binding("down", "results", "Results", show=False, id="search-results"),
    ]

    def __init__(self, api: ApiClient) -> None:
        super().__init__()
        self._api = api
        #: The events of the last answer, by id.
        self.found: dict[int, Event] = {}
        #: The query the shown results answer.
        self.answered = ""
        self._timer: Timer | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="search"):
            yield Static(Text("Search events", style="bold"), id="search-title")
            yield Input(placeholder="team, player or league (3+ letters)", id="search-input")
            yield Static(Text(""), id="search-status")
            yield OptionList(id="search-list")

    def on_mount(self) -> None:
        self.query_one("#search-input", Input).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        if self._timer is not None:
            self._timer.stop()
        text = event.value.strip()
        if len(text) < MIN_QUERY:
            self._status(f"Type at least {MIN_QUERY} characters.")
            return
        self._timer = self.set_timer(DEBOUNCE, lambda: self._search(text))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        options = self.query_one(OptionList)
        if options.option_count:
            self._choose(options.highlighted or 0)

    def _search(self, text: str) -> None:
        self._status("Searching…")
        self.run_worker(
            self._fetch(text),
            group="search",
            description="search events",
            exclusive=True,
            exit_on_error=False,
        )

    async def _fetch(self, text: str) -> None:
        try:
            events = await self._api.search_events(text)
        except OddsApiError as error:
            self._status(f"Search failed: {clean(error)}")
            return
        self.answered = text
        self.found = {event.id: event for event in events}
        options = self.query_one(OptionList)
        options.clear_options()
        options.add_options([Option(_label(event), id=str(event.id)) for event in events])
        if events:
            options.highlighted = 0
            self._status(f"{len(events)} events for {clean(text)!r}: ↓ and enter to open one.")
        else:
            self._status(f"No event matches {clean(text)!r}.")

    def _status(self, message: str) -> None:
        self.query_one("#search-status", Static).update(Text(message, style="dim"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._choose(event.option_index)

    def _choose(self, index: int) -> None:
        option = self.query_one(OptionList).get_option_at_index(index)
        if option.id is not None:
            self.dismiss(int(option.id))

    def chosen(self, event_id: int) -> Event | None:
        """The chosen event as the service sent it (the app puts it on the board first)."""
        return self.found.get(event_id)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_results(self) -> None:
        options = self.query_one(OptionList)
        if options.option_count:
            options.focus()


def _label(event: Event) -> Text:
    """`Home v Away · Sport · League · status`, all plain text."""
    view = event_view(event, 0.0)
    text = Text(clean(f"{event.home} v {event.away}"), style="bold")
    text.append(clean(f"  {event.sport.name} · {event.league.name} · "))
    status = event_fields.status_text(view).plain
    if event.status == "pending":
        status = event_fields.start_text(view).plain
    elif event.status == "live":
        status = f"live {event.scores.home}-{event.scores.away}"
    text.append(status, style="dim")
    return text


def open_search(app: Any) -> None:
    """Push the search; the chosen event goes on the board and its Event screen opens."""
    modal = SearchModal(app.hub.api)

    def chosen(event_id: int | None) -> None:
        if event_id is None:
            return
        event = modal.chosen(event_id)
        if event is not None:
            app.hub.put_events([event], None)  # asked a while ago: the feed's scores win
        app.open_event(event_id)

    app.push_screen(modal, chosen)
