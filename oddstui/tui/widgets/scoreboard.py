"""The Event screen's scoreboard: teams, score, status, the running clock and period scores."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from oddstui.tui import cells
from oddstui.tui.state import LIVE, EventView
from oddstui.tui.text import plain


def scoreboard_text(event: EventView, now: float, trusted: bool) -> Text:
    """Four centred lines; every name is plain text, the clock derives from `now`."""
    board = Text(justify="center", no_wrap=True, overflow="ellipsis")
    board.append_text(plain(event.home, "bold"))
    score = cells.score_text(event, trusted)
    board.append("   ")
    board.append_text(score if score.plain else Text("v", style="dim"))
    board.append("   ")
    board.append_text(plain(event.away, "bold"))
    board.append("\n")
    state = Text(" ").join(
        part
        for part in (
            cells.status_text(event),
            cells.clock_text(event, now),
            cells.detail_text(event) if event.status == LIVE else Text(""),
        )
        if part.plain
    )
    board.append_text(state)
    if event.status != LIVE and event.start is not None:
        board.append("  ")
        board.append_text(cells.start_text(event))
    board.append("\n")
    board.append_text(cells.periods_text(event))
    board.append("\n")
    board.append_text(plain(f"{event.sport_name} · {event.league_name}", "dim"))
    return board


class Scoreboard(Static):
    """Repaints only when its text changes (the clock moves once a second, prices never)."""

    DEFAULT_CSS = """
    Scoreboard { width: 1fr; height: 4; content-align: center middle; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__("", id=id, classes=classes)
        self._shown: Text | None = None

    def show(self, event: EventView, now: float, trusted: bool) -> bool:
        """Show the event as of `now`; returns True when anything visible changed."""
        text = scoreboard_text(event, now, trusted)
        if self._shown is not None and text == self._shown:
            return False
        self._shown = text
        self.update(text, layout=False)  # a fixed height: the size never changes
        return True

    def show_message(self, message: str) -> None:
        text = Text(message, justify="center")
        if text != self._shown:
            self._shown = text
            self.update(text, layout=False)

    @property
    def shown(self) -> str:
        return "" if self._shown is None else self._shown.plain
