"""The Event screen's scoreboard: teams, score, status, the running clock and period scores.

Each part is its own widget and is repainted only when its text changes, so the once-a-second
clock rewrites five cells of the terminal, not the whole board.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from oddstui.tui.desk.state import LIVE, EventView
from oddstui.tui.kit import event_fields
from oddstui.tui.text import plain

#: Cells kept for the clock (`45+2'`, `Q4 7:12`, `P3 12:40`, `F5 45-12`), so a tick never
#: changes the layout.
CLOCK_WIDTH = 8


def teams_text(event: EventView, trusted: bool) -> Text:
    """`Home ■   1-0   Away`: a side's red cards stand beside its name."""
    home_cards, away_cards = event.red_cards or (0, 0)
    line = Text(no_wrap=True, overflow="ellipsis")
    line.append_text(plain(event.home, "bold"))
    if home_cards:
        line.append(" ")
        line.append_text(event_fields.red_cards_text(home_cards))
    score = event_fields.score_text(event, trusted)
    line.append("   ")
    line.append_text(score if score.plain else Text("v", style="dim"))
    line.append("   ")
    if away_cards:
        line.append_text(event_fields.red_cards_text(away_cards))
        line.append(" ")
    line.append_text(plain(event.away, "bold"))
    return line


def status_text(event: EventView) -> Text:
    status = event_fields.status_text(event)
    if event.status != LIVE and event.start is not None:
        status.append("  ")
        status.append_text(event_fields.start_text(event))
    return status


def detail_text(event: EventView) -> Text:
    return event_fields.detail_text(event) if event.status == LIVE else Text("")


def clock_text(event: EventView, now: float) -> Text:
    return event_fields.clock_text(event, now)


class BoardPart(Static):
    """A piece of the board that repaints only when its text changes."""

    def __init__(self, *, id: str | None = None, fixed: bool = False) -> None:
        super().__init__("", id=id)
        self._shown = Text("")
        self._fixed = fixed

    def show(self, text: Text) -> bool:
        if text == self._shown:
            return False
        self._shown = text
        self.update(text, layout=not self._fixed)
        return True

    @property
    def plain(self) -> str:
        return self._shown.plain


class Scoreboard(Vertical):
    """Teams and score; status, clock and detail; period scores; sport and league."""

    DEFAULT_CSS = f"""
    Scoreboard {{ width: 1fr; height: 4; }}
    Scoreboard > BoardPart, Scoreboard > Horizontal > BoardPart {{ width: auto; height: 1; }}
    Scoreboard > BoardPart {{ width: 1fr; text-align: center; }}
    Scoreboard > Horizontal {{ height: 1; align-horizontal: center; }}
    Scoreboard #board-clock {{ width: {CLOCK_WIDTH + 2}; text-align: center; }}
    """

    def compose(self) -> ComposeResult:
        yield BoardPart(id="board-teams", fixed=True)
        with Horizontal():
            yield BoardPart(id="board-status")
            yield BoardPart(id="board-clock", fixed=True)
            yield BoardPart(id="board-detail")
        yield BoardPart(id="board-periods", fixed=True)
        yield BoardPart(id="board-league", fixed=True)

    def show(self, event: EventView, now: float, trusted: bool) -> bool:
        """Show the event as of `now`; returns True when anything visible changed."""
        changed = False
        for part, text in (
            ("#board-teams", teams_text(event, trusted)),
            ("#board-status", status_text(event)),
            ("#board-clock", clock_text(event, now)),
            ("#board-detail", detail_text(event)),
            ("#board-periods", event_fields.periods_text(event)),
            ("#board-league", plain(f"{event.sport_name} · {event.league_name}", "dim")),
        ):
            changed = self.query_one(part, BoardPart).show(text) or changed
        return changed

    def show_message(self, message: str) -> None:
        """A line in place of the board (loading, or why the event could not be loaded)."""
        self.query_one("#board-teams", BoardPart).show(Text(message))

    @property
    def shown(self) -> str:
        """Everything the board shows, as plain text (for tests)."""
        return "\n".join(part.plain for part in self.query(BoardPart))
