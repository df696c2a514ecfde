"""Cell texts shared by the trading boards (arbitrage, value bets, dropping odds)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rich.text import Text

from oddstui.tui.kit.marks import SUSPECT_MARK

if TYPE_CHECKING:
    pass

VANISHED_STYLE = "dim strike"


def age_text(seconds: float | None, step: int = 1) -> Text:
    """`12s`, `4m`, `3h`, `2d`; `–` when unknown. Under a minute, whole `step`s of seconds (a
    board of hundreds of rows shows ages in 5 s steps, so they are not redrawn every second)."""
    if seconds is None:
        return Text("–", justify="right")
    seconds = max(seconds, 0.0)
    if seconds < 60:
        shown = f"{int(seconds) // step * step}s"
    elif seconds < 3600:
        shown = f"{seconds // 60:.0f}m"
    elif seconds < 86400:
        shown = f"{seconds // 3600:.0f}h"
    else:
        shown = f"{seconds // 86400:.0f}d"
    return Text(shown, justify="right")


def percent_text(value: float | None, *, signed: bool = True, style: str = "") -> Text:
    if value is None:
        return Text("–", justify="right")
    shown = f"{value:+.2f}%" if signed else f"{value:.2f}%"
    return Text(shown, style=style, justify="right")


def marked(cells: Mapping[str, Text], column: str) -> dict[str, Text]:
    """The row's cells with the suspect mark in front of `column`'s text."""
    out = dict(cells)
    if column in out:
        text = Text(f"{SUSPECT_MARK} ", style="bold yellow", justify=out[column].justify)
        text.append_text(out[column])
        out[column] = text
    return out


def gone_cells(cells: Mapping[str, Text], column: str, gone_for: float) -> dict[str, Text]:
    """A vanished row: every cell dimmed and struck through, `column` saying how long ago."""
    out = {key: plain_copy(text) for key, text in cells.items()}
    if column:
        out[column] = Text(f"gone {age_text(gone_for).plain}")
    for text in out.values():
        text.stylize(VANISHED_STYLE)
    return out


def plain_copy(text: Text) -> Text:
    return Text(text.plain, justify=text.justify, no_wrap=text.no_wrap, overflow=text.overflow)


def shown_counts(live: int, gone: int, hidden: int, parts: str = "") -> Text:
    """`12 shown: 10 live (parts) + 2 gone · 3 ⚠ hidden`: every number adds up."""
    text = Text(f"{live + gone} shown", "bold")
    text.append(f": {live} live")
    if parts:
        text.append(f" ({parts})")
    text.append(f" + {gone} gone")
    if hidden:
        text.append(f" · {hidden} {SUSPECT_MARK} hidden")
    return text
