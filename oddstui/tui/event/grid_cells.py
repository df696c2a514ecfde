"""The price grid's columns and cells as plain data (no textual): what a cell shows, how text
fits a column, and which columns fit a width (the rest are hidden and marked)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import cell_len, set_cell_size

from oddstui.tui.kit.columns import Column
from oddstui.tui.text import clean


def hidden_marker(count: int) -> str:
    return f"+{count} more ›" if count else ""


def fitting_columns(columns: Sequence[Column], width: int) -> list[Column]:
    """The columns shown in `width` cells, in their order. Priority 0 is always shown; then each
    further priority, all its columns or none, while they fit with the hidden-columns marker."""

    def need(shown: Sequence[Column]) -> int:
        hidden = len(columns) - len(shown)
        marker = len(hidden_marker(hidden)) + 1 if hidden else 0
        return sum(column.width + 1 for column in shown) + marker

    if need(columns) <= width:
        return list(columns)
    chosen = [column for column in columns if column.priority == 0]
    for priority in sorted({column.priority for column in columns} - {0}):
        trial = [column for column in columns if column in chosen or column.priority == priority]
        if need(trial) > width:
            break
        chosen = trial
    return chosen


@dataclass(frozen=True, slots=True)
class Cell:
    """What one cell shows: literal text (never markup), its roles, and maybe a hyperlink."""

    text: str
    roles: tuple[str, ...] = ()
    link: str | None = None


EMPTY = Cell("")


def safe_link(url: str | None) -> str | None:
    """An http(s) URL fit for a terminal hyperlink, or None (missing, "N/A", other schemes)."""
    if not url:
        return None
    cleaned = clean(url).strip()
    if cleaned != url.strip() or not cleaned.lower().startswith(("http://", "https://")):
        return None
    return cleaned


def fit(text: str, column: Column) -> str:
    """`text` without control characters, cut or padded to the column's width in cells."""
    text = clean(text)
    width = column.width
    length = cell_len(text)
    if length > width:
        return set_cell_size(text, max(width - 1, 0)) + "…"
    if column.justify == "right":
        return " " * (width - length) + text
    return text + " " * (width - length)
