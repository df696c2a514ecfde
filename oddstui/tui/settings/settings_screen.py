"""Settings (`s`): odds format, theme, slow-link mode, desktop notifications, the exchanges'
commission, the suspect threshold, the ages at which a price is stale, and the way to the
account's bookmakers. Each change applies at once and is saved to the config file (atomic)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import getters
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Input, Label, RadioButton, RadioSet, Static, Switch

from oddstui import config
from oddstui.book.formats import ODDS_FORMATS, format_price

if TYPE_CHECKING:
    from oddstui.tui.app import OddsApp
from oddstui.tui.desk.state import ChangeSet
from oddstui.tui.kit.desk_footer import DeskFooter

THEMES = (("oddstui-dark", "Dark"), ("oddstui-light", "Light"))
FORMAT_LABELS = {"decimal": "Decimal", "american": "American", "fractional": "Fractional"}
SAMPLE_PRICES = (1.5, 2.1, 3.25)
COMMISSION_HINT = "exchanges' back prices count net of it: margins, best prices, arbitrages"
SUSPECT_HINT = "boards hide (⚠) an arbitrage or edge above it; h shows them"
STALE_HINT = "in play, before kick-off: an older price is dimmed on the Event screen"


def parse_commission(text: str) -> float | None:
    """A commission typed in percent ("5", "2.5") as a fraction, or None when it is not one."""
    try:
        percent = float(text.strip())
    except ValueError:
        return None
    return percent / 100 if 0 <= percent < 100 else None


def positive_below(limit: float) -> Callable[[str], float | None]:
    """A parser of a positive number below `limit` ("15", "7.5"): None when the text is not one."""

    def parse(text: str) -> float | None:
        try:
            value = float(text.strip())
        except ValueError:
            return None
        return value if 0 < value < limit else None

    return parse


parse_percent = positive_below(1000)
parse_seconds = positive_below(10**7)


#: The number inputs: id -> (parse, the setting, its hint's id, the hint, what a bad value is
#: told). Each applies and saves at once when it parses, else its hint says what is wanted.
NUMBER_INPUTS: dict[str, tuple[Callable[[str], float | None], str, str, str, str]] = {
    "exchange-commission": (
        parse_commission,
        "exchange_commission",
        "commission-hint",
        COMMISSION_HINT,
        "a number from 0 to below 100",
    ),
    "suspect-profit": (
        parse_percent,
        "suspect_profit",
        "suspect-hint",
        SUSPECT_HINT,
        "a number of percent above 0",
    ),
    "stale-live": (
        parse_seconds,
        "stale_live",
        "stale-hint",
        STALE_HINT,
        "a number of seconds above 0",
    ),
    "stale-prematch": (
        parse_seconds,
        "stale_prematch",
        "stale-hint",
        STALE_HINT,
        "a number of seconds above 0",
    ),
}


def apply_settings(app: OddsApp) -> None:
    """Make the app follow `app.settings`: theme, update rate, flashing, and prices redrawn."""
    settings = app.settings
    if settings.theme in app.available_themes:
        app.theme = settings.theme
    app.set_class(settings.slow_link, "-slow-link")
    app.hub.set_slow_link(settings.slow_link)
    # Every board redraws (the ones hidden under this screen once they are shown again).
    app.hub.changed.publish(ChangeSet(catalog=True, feed=True))


def save(app: OddsApp) -> str | None:
    """Save the app's settings; returns the reason when the file could not be written."""
    try:
        config.save_settings(app.settings)
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

    if TYPE_CHECKING:
        app = getters.app(OddsApp)

    #: The first setting has the keys (arrows choose, enter or space picks), not the scroll body.
    AUTO_FOCUS = "#odds-format"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("b", "bookmakers", "Bookmakers", id="settings-bookmakers"),
        Binding("escape", "app.back", "Back", id="settings-back"),
    ]

    @property
    def settings(self) -> config.Settings:
        return self.app.settings

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
            yield Label("Exchange commission on winnings, %", classes="settings-label")
            with Horizontal(classes="settings-commission"):
                yield Input(
                    f"{settings.exchange_commission * 100:g}",
                    type="number",
                    id="exchange-commission",
                )
                yield Static(COMMISSION_HINT, id="commission-hint", classes="settings-hint")
            yield Label("Suspect above this profit, %", classes="settings-label")
            with Horizontal(classes="settings-commission"):
                yield Input(f"{settings.suspect_profit:g}", type="number", id="suspect-profit")
                yield Static(SUSPECT_HINT, id="suspect-hint", classes="settings-hint")
            yield Label("Stale after, seconds", classes="settings-label")
            with Horizontal(classes="settings-commission"):
                yield Input(f"{settings.stale_live:g}", type="number", id="stale-live")
                yield Input(f"{settings.stale_prematch:g}", type="number", id="stale-prematch")
                yield Static(STALE_HINT, id="stale-hint", classes="settings-hint")
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

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id not in NUMBER_INPUTS:
            return
        parse, setting, hint_id, hint, wanted = NUMBER_INPUTS[event.input.id]
        value = parse(event.value)
        shown = self.query_one(f"#{hint_id}", Static)
        if value is None:
            shown.update(Text(wanted, style="bold"))
            return
        shown.update(hint)
        if value != getattr(self.settings, setting):
            setattr(self.settings, setting, value)
            self._changed()

    def _changed(self) -> None:
        apply_settings(self.app)
        problem = save(self.app)
        shown = problem or f"Saved to {config.config_path()}"
        self.query_one("#settings-saved", Static).update(Text(shown, style="dim"))
        if problem:
            self.notify(problem, severity="error", markup=False)

    def action_bookmakers(self) -> None:
        from oddstui.tui.settings.bookmakers import BookmakersScreen

        self.app.push_screen(BookmakersScreen())
