"""Settings (`s`): odds format, theme, slow-link mode, desktop notifications, and the way to the
account's bookmakers. Each change applies at once and is saved to the config file (atomic)."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Label, RadioButton, RadioSet, Static, Switch

from oddstui import config
from oddstui.book.formats import ODDS_FORMATS, format_price
from oddstui.tui.state import ChangeSet
from oddstui.tui.widgets.desk_footer import DeskFooter

THEMES = (("oddstui-dark", "Dark"), ("oddstui-light", "Light"))
FORMAT_LABELS = {"decimal": "Decimal", "american": "American", "fractional": "Fractional"}
SAMPLE_PRICES = (1.5, 2.1, 3.25)


def apply_settings(app: App[Any]) -> None:
    """Make the app follow `app.settings`: theme, update rate, flashing, and prices redrawn."""
    settings: config.Settings = getattr(app, "settings")  # noqa: B009
    if settings.theme in app.available_themes:
        app.theme = settings.theme
    app.set_class(settings.slow_link, "-slow-link")
    timer = getattr(app, "flush_timer", None)
    hub: Any = getattr(app, "hub", None)
    if timer is not None and hub is not None:
        from oddstui.tui.app import FLUSH_HZ, SLOW_FLUSH_HZ

        hz = SLOW_FLUSH_HZ if settings.slow_link else FLUSH_HZ
        timer.stop()
        setattr(app, "flush_timer", app.set_interval(1 / hz, hub.flush, name="flush"))  # noqa: B010
    if hub is not None:
        # Every board redraws (the ones hidden under this screen once they are shown again).
        hub.changed.publish(ChangeSet(catalog=True, feed=True))


def save(app: App[Any]) -> str | None:
    """Save the app's settings; returns the reason when the file could not be written."""
    try:
        config.save_settings(getattr(app, "settings"))  # noqa: B009
    except OSError as error:
        return f"The settings could not be saved: {error.strerror}"
    return None


class SettingsScreen(Screen[None]):
    """Odds format, theme, slow link and notifications; `b` chooses the bookmakers.

    | key | action |
    |---|---|
    | `b` | choose the account's bookmakers |
    | `escape` | back |
    """

    #: The first setting has the keys (arrows choose, enter or space picks), not the scroll body.
    AUTO_FOCUS = "#odds-format"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("b", "bookmakers", "Bookmakers", id="settings-bookmakers"),
        Binding("escape", "app.back", "Back", id="settings-back"),
    ]

    @property
    def settings(self) -> config.Settings:
        settings: config.Settings = getattr(self.app, "settings")  # noqa: B009
        return settings

    def compose(self) -> ComposeResult:
        settings = self.settings
        yield Static("Settings", classes="heading")
        with VerticalScroll(id="settings-body"):
            yield Label("Odds format", classes="settings-label")
            with RadioSet(id="odds-format"):
                for fmt in ODDS_FORMATS:
                    yield RadioButton(
                        FORMAT_LABELS[fmt], value=settings.odds_format == fmt, id=f"format-{fmt}"
                    )
            yield Static(self._sample(), id="format-sample", classes="settings-hint")
            yield Label("Theme", classes="settings-label")
            with RadioSet(id="theme"):
                for name, label in THEMES:
                    yield RadioButton(label, value=settings.theme == name, id=f"theme-{name}")
            if self.app.no_color:
                yield Static(
                    "NO_COLOR is set: colours are off whatever the theme.", classes="settings-hint"
                )
            with Horizontal(classes="settings-switch"):
                yield Switch(settings.slow_link, id="slow-link")
                yield Label("Slow link: fewer updates a second (2, not 5) and no flashing")
            with Horizontal(classes="settings-switch"):
                yield Switch(settings.desktop_notifications, id="desktop-notifications")
                yield Label("Desktop notifications for alerts (OSC 9)")
            yield Static(
                Text.assemble(("b", "bold"), " chooses the account's bookmakers"),
                classes="settings-hint",
            )
            yield Static("", id="settings-saved", classes="settings-hint")
        yield DeskFooter()

    def _sample(self) -> Text:
        fmt = self.settings.odds_format
        shown = "   ".join(f"{p:.2f} → {format_price(p, fmt)}" for p in SAMPLE_PRICES)  # type: ignore[arg-type]
        return Text(f"e.g. {shown}", style="dim")

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        button_id = event.pressed.id or ""
        if event.radio_set.id == "odds-format":
            self.settings.odds_format = button_id.removeprefix("format-")
            self.query_one("#format-sample", Static).update(self._sample())
        elif event.radio_set.id == "theme":
            self.settings.theme = button_id.removeprefix("theme-")
        self._changed()

    def on_switch_changed(self, event: Switch.Changed) -> None:
        if event.switch.id == "slow-link":
            self.settings.slow_link = event.value
        elif event.switch.id == "desktop-notifications":
            self.settings.desktop_notifications = event.value
        self._changed()

    def _changed(self) -> None:
        apply_settings(self.app)
        problem = save(self.app)
        shown = problem or f"Saved to {config.config_path()}"
        self.query_one("#settings-saved", Static).update(Text(shown, style="dim"))
        if problem:
            self.notify(problem, severity="error", markup=False)

    def action_bookmakers(self) -> None:
        from oddstui.tui.screens.bookmakers import BookmakersScreen

        self.app.push_screen(BookmakersScreen())
