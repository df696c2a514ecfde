"""The stake ticket on its own, over an empty screen: for its snapshot at 80x24 with the
longest names the desk meets, a leg at its bookmaker's limit and a rounding that loses."""

from __future__ import annotations

from textual.app import App

from oddstui.tui.app import style_sheets
from oddstui.tui.boards.ticket.stake_modal import StakeTicketModal
from oddstui.tui.boards.ticket.stakes import TicketLeg
from oddstui.tui.themes import ODDS_VARIABLES_DARK, THEMES

HOME = "Borussia Mönchengladbach Amateure"
AWAY = "Wolverhampton Wanderers Reserves"
TITLE = f"{HOME} v {AWAY} · ML"  # the ticket adds the profit of its legs
LEGS = (
    TicketLeg("home", "Bet365", 2.2, f"ML {HOME}", 12.0, limit=40.0),
    TicketLeg("away", "Pinnacle Sports Exchange", 1.9, f"ML {AWAY}", 75.0, 2.0, 30.0),
)


class TicketApp(App[None]):
    CSS_PATH = style_sheets()  # type: ignore[assignment]

    def __init__(self, stake: str = "100", step: str = "20") -> None:
        super().__init__()
        self._stake, self._step = stake, step

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(ODDS_VARIABLES_DARK)

    def on_mount(self) -> None:
        for theme in THEMES:
            self.register_theme(theme)
        self.theme = "oddstui-dark"
        self.push_screen(StakeTicketModal(TITLE, LEGS, stake=self._stake, step=self._step))
