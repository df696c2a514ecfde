"""Price against time for one side, several bookmakers overlaid, drawn by textual-plotext.

Each bookmaker is one stepped line (a price holds until the next one); its opening price is
marked `◆` and its last price `●` (the closing price once the event is over). The time axis is
local time, the price axis is in the trader's odds format. One side is shown at a time.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static
from textual_plotext import PlotextPlot

from oddstui.book.formats import OddsFormat, format_price
from oddstui.tui.event.movement_chart import SideMove, move_text, time_ticks
from oddstui.tui.text import clean, fit

#: The bookmakers' colours, in the order of the list (plotext colour names).
COLOURS = ("cyan", "orange", "magenta", "green", "blue", "red")
OPENING_MARK, LAST_MARK = "◆", "●"
#: Cells per time label, so the labels never run into each other.
CELLS_PER_TIME_TICK = 14


def steps(times: Sequence[float], prices: Sequence[float], until: float) -> tuple[list, list]:
    """The points of a stepped line: each price holds until the next one, the last until `until`."""
    xs: list[float] = []
    ys: list[float] = []
    for index, (at, price) in enumerate(zip(times, prices, strict=True)):
        following = times[index + 1] if index + 1 < len(times) else max(until, at)
        xs += [at, following]
        ys += [price, price]
    return xs, ys


def price_ticks(low: float, high: float, count: int = 5) -> list[float]:
    if high <= low:
        return [low]
    step = (high - low) / (count - 1)
    return [low + step * index for index in range(count)]


class PriceHistory(Vertical):
    """The chart of one side, a line per bookmaker below it; `show_side()` picks the side."""

    DEFAULT_CSS = """
    PriceHistory { height: 1fr; }
    PriceHistory PlotextPlot { height: 1fr; min-height: 8; }
    PriceHistory .history-side, PriceHistory .chart-message { height: auto; }
    PriceHistory .history-moves { height: auto; }
    """

    def __init__(self) -> None:
        super().__init__()
        #: Each bookmaker's sides, in the order they are drawn.
        self.books: dict[str, list[SideMove]] = {}
        self.sides: list[str] = []
        self.side = ""
        self._labels: dict[str, str] = {}
        self._fmt: OddsFormat = "decimal"
        self._closed = False

    def compose(self) -> ComposeResult:
        yield Static("", classes="chart-message")
        yield Static("", classes="history-side")
        yield PlotextPlot()
        yield Static("", classes="history-moves")

    def show_message(self, message: str) -> None:
        line = self.query_one(".chart-message", Static)
        line.update(Text(message))
        line.display = True
        if not self.books:
            for part in (PlotextPlot, ".history-side", ".history-moves"):
                self.query_one(part).display = False

    def show(
        self,
        books: dict[str, list[SideMove]],
        labels: dict[str, str],
        fmt: OddsFormat,
        *,
        closed: bool = False,
    ) -> None:
        """Draw `books` (bookmaker -> its sides' moves); `closed`: the last price is the close."""
        self.books = {book: moves for book, moves in books.items() if moves}
        self._labels, self._fmt, self._closed = labels, fmt, closed
        self.sides = list(dict.fromkeys(m.side for moves in self.books.values() for m in moves))
        if not self.books:
            self.show_message("No price history for these bookmakers, market and line.")
            return
        self.query_one(".chart-message", Static).display = False
        for part in (PlotextPlot, ".history-side", ".history-moves"):
            self.query_one(part).display = True
        self.show_side(self.side if self.side in self.sides else self.sides[0])

    def next_side(self, step: int = 1) -> None:
        if self.sides:
            index = (self.sides.index(self.side) + step) % len(self.sides)
            self.show_side(self.sides[index])

    def show_side(self, side: str) -> None:
        self.side = side
        drawn = {book: m for book, moves in self.books.items() for m in moves if m.side == side}
        heading = Text(clean(self._labels.get(side, side)), style="bold")
        if len(self.sides) > 1:
            heading.append(f"  {self.sides.index(side) + 1}/{len(self.sides)}", style="dim")
            heading.append(" ← →", style="dim")
        last = "close" if self._closed else "now"
        heading.append(f"   {OPENING_MARK} opening  {LAST_MARK} {last}", style="dim")
        heading.append("   escape closes", style="dim italic")
        self.query_one(".history-side", Static).update(heading)
        self._plot(drawn)
        self.query_one(".history-moves", Static).update(self._moves(drawn))
        self.call_after_refresh(self._replot)  # the time labels fit the width once it is known

    def on_resize(self) -> None:
        self._replot()

    def _replot(self) -> None:
        if self.side:
            self._plot({b: m for b, ms in self.books.items() for m in ms if m.side == self.side})

    def _plot(self, drawn: dict[str, SideMove]) -> None:
        widget = self.query_one(PlotextPlot)
        plt = widget.plt
        plt.clear_data()
        until = max(move.times[-1] for move in drawn.values())
        start = min(move.times[0] for move in drawn.values())
        for index, move in enumerate(drawn.values()):
            colour = COLOURS[index % len(COLOURS)]
            xs, ys = steps(move.times, move.prices, until)
            # No plotext legend: it would cover the lines; the list below names each colour.
            plt.plot(xs, ys, marker="hd", color=colour)
            plt.scatter([move.times[0]], [move.opening], marker=OPENING_MARK, color=colour)
            plt.scatter([move.times[-1]], [move.current], marker=LAST_MARK, color=colour)
        width = max(widget.size.width, 40)
        positions, labels = time_ticks(start, until, max(2, min(6, width // CELLS_PER_TIME_TICK)))
        plt.xticks(positions, labels)
        low = min(min(move.prices) for move in drawn.values())
        high = max(max(move.prices) for move in drawn.values())
        levels = price_ticks(low, high)
        plt.yticks(levels, [format_price(level, self._fmt) for level in levels])
        widget.refresh()

    def _moves(self, drawn: dict[str, SideMove]) -> Text:
        last = "close" if self._closed else "now"
        text = Text(no_wrap=True, overflow="ellipsis")
        for index, (book, move) in enumerate(drawn.items()):
            text.append(f"{fit(book, 16):<17}", style=f"bold {_rich(COLOURS[index % 6])}")
            text.append_text(move_text(move, self._fmt, last))
            text.append("\n")
        text.rstrip()
        return text


def _rich(colour: str) -> str:
    """A plotext colour name as a Rich one."""
    return {"orange": "dark_orange"}.get(colour, colour)
