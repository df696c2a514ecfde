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


def fit_text(text: str, width: int) -> str:
    """`text` without control characters, cut to at most `width` cells (never padded)."""
    text = clean(text)
    if cell_len(text) > width:
        return set_cell_size(text, max(width - 1, 0)) + "…" if width else ""
    return text


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


#: The least contrast (WCAG ratio) a cell's text keeps against its background, flash or not.
MIN_CONTRAST = 3.0


def contrast_ratio(first: tuple[int, int, int], second: tuple[int, int, int]) -> float:
    """WCAG contrast ratio of two RGB colours: 1 (the same) to 21 (black on white)."""

    def luminance(rgb: tuple[int, int, int]) -> float:
        def channel(value: int) -> float:
            c = value / 255
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

        r, g, b = (channel(value) for value in rgb)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def readable_on(
    colour: tuple[int, int, int],
    background: tuple[int, int, int],
    fallbacks: Sequence[tuple[int, int, int]],
) -> tuple[int, int, int]:
    """`colour` if it reads on `background`, else the fallback with the most contrast: a price
    rising in the flash's own colour on a flashed (best) cell must never vanish. The first
    fallback that reads is taken (the theme's text colour first), else the most legible."""
    for candidate in (colour, *fallbacks):
        if contrast_ratio(candidate, background) >= MIN_CONTRAST:
            return candidate
    return max(fallbacks, key=lambda candidate: contrast_ratio(candidate, background))
