"""Network text made safe to show: plain `rich.text.Text`, with control characters removed.

A `str` cell in a DataTable is parsed as Rich markup, and a raw escape sequence reaches the
terminal, so every name, label and URL that comes from the network passes through `plain()`.
"""

from __future__ import annotations

from rich.text import Text

from oddstui.book.clean_text import clean

__all__ = ["clean", "fit", "plain"]


def plain(value: object, style: str = "") -> Text:
    """A `Text` that shows `value` literally: markup is not parsed, controls are gone."""
    return Text(clean(value), style=style, no_wrap=True, overflow="ellipsis")


def fit(value: object, width: int) -> str:
    """`clean(value)` cut to `width` cells with an ellipsis, for fixed-width columns."""
    text = clean(value)
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"
