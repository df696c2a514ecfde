"""The Textual app: modes for the top-level screens, the hub's timers, and app-wide keys."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path, PurePath
from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.filter import LineFilter
from textual.screen import ModalScreen, Screen
from textual.worker import Worker, WorkerState

from oddstui import config
from oddstui.api.errors import OddsApiError, ServiceUnavailable
from oddstui.api.rest import ApiClient
from oddstui.betlog.store import BetLog, BetLogError
from oddstui.tui.alerts.center import AlertCenter
from oddstui.tui.bets.bets_screen import BetsScreen
from oddstui.tui.boards.arbitrage.arb_screen import ArbitrageScreen
from oddstui.tui.boards.dropping import DroppingOddsScreen
from oddstui.tui.boards.value.value_screen import ValueBetsScreen
from oddstui.tui.browse.live import LiveScreen
from oddstui.tui.browse.sports import SportsScreen
from oddstui.tui.browse.watchlist_screen import WatchlistScreen
from oddstui.tui.commands import JumpCommands
from oddstui.tui.desk import gc_settle
from oddstui.tui.desk.feed import Feed
from oddstui.tui.desk.hub import POLL_HZ, DeskHub
from oddstui.tui.desk.rest_polls import BOARD, EVENT, LIVE, OTHER
from oddstui.tui.desk.screen_state import in_browser, state_path, write_screen_state
from oddstui.tui.intel.books_screen import BooksScreen
from oddstui.tui.intel.stale_screen import StaleLinesScreen
from oddstui.tui.kit.help_modal import HelpModal
from oddstui.tui.kit.keymap import load_keymap
from oddstui.tui.kit.no_links import NoLinks, links_wanted
from oddstui.tui.kit.table_prefs import TablePrefsStore
from oddstui.tui.messages import AlertRulesWanted, BetTaken, EventChosen, WatchToggled
from oddstui.tui.text import clean
from oddstui.tui.themes import ODDS_VARIABLES_DARK, THEMES


def styles_dir() -> Path:
    """`styles/` at the repository root in a checkout, `oddstui/styles/` in the wheel."""
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "styles", package.parent / "styles"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("the styles/ folder of oddstui is missing from this installation")


def style_sheets() -> list[str | PurePath]:
    return [str(path) for path in sorted(styles_dir().glob("*.tcss"))]


class OddsApp(App[int]):
    """oddstui: a terminal trading desk for sports odds.

    | key | action |
    |---|---|
    | `1`–`9` | Sports, Live, Watchlist, Arbitrage, Value, Dropping, Bets, Books, Stale lines |
    | `escape` | back |
    | `?` | help |
    | `/` | search events |
    | `s` | settings (odds format, theme, slow link, bookmakers) |
    | `A` | alert rules: list, edit, delete; the session's alerts |
    | `r` | take the feed back after another client replaced it |
    | `q` | quit |
    """

    TITLE = "oddstui"
    CSS_PATH = style_sheets()
    COMMANDS = App.COMMANDS | {JumpCommands}
    MODES: ClassVar = {
        "sports": SportsScreen,
        "live": LiveScreen,
        "watchlist": WatchlistScreen,
        "arbitrage": ArbitrageScreen,
        "value": ValueBetsScreen,
        "dropping": DroppingOddsScreen,
        "bets": BetsScreen,
        "books": BooksScreen,
        "stale": StaleLinesScreen,
    }
    DEFAULT_MODE = "live"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "switch_mode('sports')", "Sports", id="screen-sports"),
        Binding("2", "switch_mode('live')", "Live", id="screen-live"),
        Binding("3", "switch_mode('watchlist')", "Watch", id="screen-watchlist"),
        Binding("4", "switch_mode('arbitrage')", "Arbs", show=False, id="screen-arbitrage"),
        Binding("5", "switch_mode('value')", "Value", show=False, id="screen-value"),
        Binding("6", "switch_mode('dropping')", "Drops", show=False, id="screen-dropping"),
        Binding("7", "switch_mode('bets')", "Bets", show=False, id="screen-bets"),
        Binding("8", "switch_mode('books')", "Books", show=False, id="screen-books"),
        Binding("9", "switch_mode('stale')", "Stale", show=False, id="screen-stale"),
        Binding("escape", "back", "Back", id="back"),
        Binding("question_mark", "help", "Help", key_display="?", id="help"),
        Binding("slash", "search", "Search", key_display="/", id="search"),
        # ctrl+p is the browser's own (print) under `oddstui web`: `:` too, named in the footer
        # there (in a terminal the help's "ctrl+p, :" line names it; the footer has no room).
        Binding(
            "colon",
            "command_palette",
            "Palette" if in_browser() else "",
            key_display=":",
            show=in_browser(),
            id="palette",
        ),
        Binding("s", "settings", "Settings", show=False, id="settings"),
        Binding("A", "alert_rules", "Alert rules", show=False, id="alert-rules"),
        Binding("r", "reconnect", "Reconnect", show=False, id="reconnect"),
        Binding("q", "quit", "Quit", id="quit"),
    ]

    def __init__(
        self,
        api: ApiClient,
        feed: Feed | None,
        *,
        settings: config.Settings | None = None,
        now: Callable[[], float] = time.time,
        watchlist_path: Path | None = None,
        start_mode: str | None = None,
        startup_warnings: Sequence[str] = (),
        table_prefs_path: Path | None = None,
        keys_path: Path | None = None,
        bet_log: BetLog | None = None,
    ) -> None:
        self.settings = settings or config.Settings()
        #: The bets taken at the stake ticket (SQLite in the data folder).
        self.bet_log = bet_log or BetLog()
        self.watchlist_path = watchlist_path or config.watchlist_path()
        watched, watchlist_warning = config.load_watchlist_recovering(self.watchlist_path)
        #: Every table's sort and columns, kept next to the watchlist.
        self.table_prefs = TablePrefsStore(
            table_prefs_path or self.watchlist_path.with_name("tables.toml")
        )
        #: The trader's keys from keys.toml, by binding id.
        self.keymap, keys_warning = load_keymap(keys_path)
        warnings = [watchlist_warning, self.table_prefs.warning, keys_warning]
        self._startup_warnings = [*startup_warnings, *filter(None, warnings)]
        # Under NO_COLOR, Textual turns every colour into a grey of 24-bit or 256 colours unless
        # the app speaks ANSI colours; then its NoColor filter leaves the terminal's defaults.
        super().__init__(ansi_color=True if "NO_COLOR" in os.environ else None)
        #: Applied after Textual's own filters: no OSC 8 links where TERM=dumb.
        self._own_filters: list[LineFilter] = [] if links_wanted() else [NoLinks()]
        for theme in THEMES:
            self.register_theme(theme)
        self.set_keymap(self.keymap)
        self.theme = (
            self.settings.theme if self.settings.theme in self.available_themes else "oddstui-dark"
        )
        #: The one hub: board, feed and REST client.
        self.hub = DeskHub(
            self, api, feed, now=now, watchlist=watched, watchlist_path=self.watchlist_path
        )
        self._start_mode = start_mode or self.DEFAULT_MODE
        self._reported: set[str] = set()

    @property
    def _background_screens(self) -> list[Screen[object]]:
        # Textual 8.2.8 counts the screen below the top one as visible even when the top one is
        # opaque; a hidden board that repaints then forces a full-terminal repaint, twice a
        # second. Only a see-through top screen (a modal) shows the ones below.
        if self.screen_stack and self.screen_stack[-1].styles.background.a == 1:
            return []
        return super()._background_screens

    def get_line_filters(self) -> Sequence[LineFilter]:
        return [*super().get_line_filters(), *self._own_filters]

    def get_theme_variable_defaults(self) -> dict[str, str]:
        # Built-in themes lack our variables; the dark values keep them readable.
        return dict(ODDS_VARIABLES_DARK)

    def on_mount(self) -> None:
        for warning in self._startup_warnings:
            self.notify(warning, severity="warning", timeout=10, markup=False)
        self.switch_mode(self._start_mode)
        if (path := state_path()) is not None:

            def write(screen: Screen[object]) -> None:
                write_screen_state(path, self.current_mode, type(screen).__name__)

            self.screen_change_signal.subscribe(self, write)
            write(self.screen)  # the first mode is set before mounting: no signal for it
        self.hub.set_slow_link(self.settings.slow_link)
        # REST loads and the catalog (the feed wakes the hub itself).
        self.set_interval(1 / POLL_HZ, self.hub.flush_due, name="flush")
        self.set_class(self.settings.slow_link, "-slow-link")
        #: Alerts on the starred events (goals, status, price thresholds, arbitrages).
        self.alerts = AlertCenter(self)
        self.alerts.start()
        self.set_interval(1.0, self._tick, name="tick")
        self.set_timer(gc_settle.FIRST_SETTLE, gc_settle.settle, name="heap")
        self.set_interval(gc_settle.SETTLE_EVERY, gc_settle.settle, name="heap")
        self.run_worker(
            self._start_hub(), group="catalog", description="load the catalog", exit_on_error=False
        )

    async def _start_hub(self) -> None:
        await self.hub.start()
        if self.hub.watchlist:  # the alerts watch them from the start
            await self.hub.load_watched()

    def _tick(self) -> None:
        self.hub.tick()
        self._say_front()
        if self.hub.odds_refresh_due() and self.hub.front_event is not None:
            self.run_worker(
                self.hub.load_odds(self.hub.front_event),
                group="odds",
                description="refresh the event's odds",
                exclusive=True,
                exit_on_error=False,
            )
        if self.hub.live_refresh_due():
            self.run_worker(
                self.hub.load_live(),
                group="live",
                description="refresh live events",
                exclusive=True,
                exit_on_error=False,
            )

    def _say_front(self) -> None:
        """Tell the hub what is in front, so that without a feed it refreshes that first."""
        from oddstui.tui.boards.rest_board import RestBoardScreen
        from oddstui.tui.event.event_screen import EventScreen

        stack = self.screen_stack
        if not stack:  # the app is closing: nothing is in front
            return
        screen = stack[-2] if len(stack) > 1 and isinstance(stack[-1], ModalScreen) else stack[-1]
        if isinstance(screen, EventScreen):
            self.hub.set_front(EVENT, screen.event_id)
        elif isinstance(screen, RestBoardScreen):
            self.hub.set_front(BOARD)
        elif isinstance(screen, LiveScreen | WatchlistScreen):
            self.hub.set_front(LIVE)
        else:
            self.hub.set_front(OTHER)

    async def on_unmount(self) -> None:
        await self.hub.stop()

    # ------------------------------------------------------------------ failures

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        self.report_worker(event.worker)

    def report_worker(self, worker: Worker[object]) -> None:
        """A failed worker becomes one notification (per distinct message), never a traceback."""
        if worker.state != WorkerState.ERROR:
            return
        error = worker.error
        if isinstance(error, ServiceUnavailable):
            # Every load fails the same way while the service is unreachable: say it once.
            key, message = "unreachable", f"The service cannot be reached: {clean(error)}"
        elif isinstance(error, OddsApiError):
            key = message = f"{worker.description}: {clean(error)}"
        else:
            key = message = f"{worker.description}: {type(error).__name__}: {clean(error)}"
        if key not in self._reported:
            self._reported.add(key)
            self.notify(message, title="Service error", severity="error", timeout=8, markup=False)

    # ------------------------------------------------------------------ navigation

    async def action_back(self) -> None:
        if len(self.screen_stack) > 1:
            await self.pop_screen()

    async def action_switch_mode(self, mode: str) -> None:
        """A screen's key lands on that screen, as it says: an Event (or a drill-down) opened
        over it is closed, even when it is the mode already shown. A modal stays open."""
        self.switch_mode(mode)
        while len(self.screen_stack) > 1 and not isinstance(self.screen, ModalScreen):
            await self.pop_screen()

    def action_help(self) -> None:
        active = [b.binding for b in self.active_bindings.values() if b.binding.description]
        # Our own keys (they have ids) first, then the widgets' generic ones.
        active.sort(key=lambda binding: binding.id is None)
        keys = [(binding.key_display or binding.key, binding.description) for binding in active]
        self.push_screen(HelpModal(keys))

    def action_search(self) -> None:
        from oddstui.tui.browse.search import open_search

        open_search(self)

    def action_settings(self) -> None:
        from oddstui.tui.settings.settings_screen import SettingsScreen

        if not isinstance(self.screen, SettingsScreen):
            self.push_screen(SettingsScreen())

    def action_alert_rules(self) -> None:
        from oddstui.tui.alerts.rules_screen import AlertRulesScreen

        if not isinstance(self.screen, AlertRulesScreen):
            self.push_screen(AlertRulesScreen())

    def action_reconnect(self) -> None:
        if self.hub.status.state in ("replaced", "unauthorized", "not in plan", "offline"):
            self.hub.reconnect()
            self.notify("Taking the feed back…")

    def open_sport(self, slug: str) -> None:
        from oddstui.tui.browse.leagues import LeaguesScreen

        self.switch_mode("sports")
        self.push_screen(LeaguesScreen(slug))

    def open_league(self, sport: str, league: str) -> None:
        from oddstui.tui.browse.events import EventsScreen

        self.switch_mode("sports")
        self.push_screen(EventsScreen(sport, league))

    def open_event(self, event_id: int) -> None:
        from oddstui.tui.event.event_screen import EventScreen

        self.push_screen(EventScreen(event_id))

    def on_event_chosen(self, message: EventChosen) -> None:
        self.open_event(message.event_id)

    def on_alert_rules_wanted(self, message: AlertRulesWanted) -> None:
        from oddstui.tui.alerts.rule_modal import open_alert_rule

        open_alert_rule(self.screen, message.event_id)

    def on_watch_toggled(self, message: WatchToggled) -> None:
        try:
            starred = self.hub.toggle_watch(message.event_id)
        except OSError as error:
            self.notify(
                f"The watchlist could not be saved: {error.strerror}",
                severity="error",
                markup=False,
            )
            return
        event = self.hub.board.events.get(message.event_id)
        name = clean(event.title) if event else f"event {message.event_id}"
        self.notify(
            f"★ {name} starred" if starred else f"{name} unstarred", timeout=3, markup=False
        )

    def on_bet_taken(self, message: BetTaken) -> None:
        """The ticket's `enter`: the bet goes into the log (or, if the log cannot take it now,
        into its pending file: one line says so, nothing is lost)."""
        try:
            bet = self.bet_log.record(message.bet)
        except BetLogError as error:
            self.notify(clean(error), severity="warning", timeout=15, markup=False)
            return
        if self.bet_log.warning:
            self.notify(clean(self.bet_log.warning), severity="warning", timeout=10, markup=False)
            self.bet_log.warning = None
        self.notify(
            f"Bet #{bet.id} logged: {clean(bet.event_name)}, {bet.stake:.2f} staked (7: Bets)",
            timeout=5,
            markup=False,
        )
