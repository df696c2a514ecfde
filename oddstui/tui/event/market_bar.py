"""The Event screen's market bar: `Market Totals 3/14  m/M   Line 2.5 2/5  [ ]   9 bookmakers`."""

from __future__ import annotations

from rich.text import Text

from oddstui.book.state import LineKey
from oddstui.tui.event.price_rows import line_text
from oddstui.tui.text import plain


def market_bar(
    market: str | None,
    markets: tuple[str, ...],
    line: LineKey | None,
    lines: tuple[LineKey, ...],
    bookmakers: int = 0,
) -> Text:
    bar = Text(no_wrap=True, overflow="ellipsis")
    if market is None:
        bar.append("Market –", style="dim")
        return bar
    position = markets.index(market) + 1 if market in markets else 0
    bar.append("Market ", style="dim")
    bar.append_text(plain(market, "bold"))
    bar.append(f" {position}/{len(markets)}", style="dim")
    bar.append("  m/M", style="dim italic")
    if line is not None and line != (None, None):
        index = lines.index(line) + 1 if line in lines else 0
        bar.append("   Line ", style="dim")
        bar.append(line_text(market, line), style="bold")  # the player first, for props
        bar.append(f" {index}/{len(lines)}", style="dim")
        bar.append("  [ ]", style="dim italic")
    if bookmakers:
        bar.append(f"   {bookmakers} bookmakers", style="dim")
    return bar
