"""Placeholder boards for part 2 (arbitrage, value bets, dropping odds)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Center
from textual.widgets import Static

from oddstui.tui.screens.base import BoardScreen


class ComingScreen(BoardScreen):
    """A clear "coming" panel for a board that is not built yet."""

    def __init__(self, title: str, blurb: str) -> None:
        super().__init__()
        self.heading = title
        #: What the board will do, in one sentence.
        self.blurb = blurb

    def compose_body(self) -> ComposeResult:
        with Center(classes="coming"):
            yield Static(f"{self.heading}: coming soon\n\n{self.blurb}", classes="coming-panel")


def arbitrage_screen() -> ComingScreen:
    return ComingScreen(
        "Arbitrage",
        "Live arbitrages from the service and from the feed, with a stake ticket.",
    )


def value_bets_screen() -> ComingScreen:
    return ComingScreen(
        "Value bets",
        "Expected value per bookmaker against de-vigged sharp prices, with Kelly stakes.",
    )


def dropping_odds_screen() -> ComingScreen:
    return ComingScreen(
        "Dropping odds", "Prices that shortened since the opening, 12h, 24h or 48h, with paging."
    )
