"""Network text made safe to show: plain `rich.text.Text`, with control characters removed.

A `str` cell in a DataTable is parsed as Rich markup, and a raw escape sequence reaches the
terminal, so every name, label and URL that comes from the network passes through `plain()`.
"""

from __future__ import annotations

import re
import unicodedata

from rich.text import Text

# C0 and C1 controls, DEL, and the bidi overrides that can reorder what a trader reads.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def clean(value: object) -> str:
    """The text with every control character removed (tabs and newlines become spaces)."""
    text = "" if value is None else str(value)
    text = text.replace("\t", " ").replace("\n", " ").replace("\r", " ")
    text = _CONTROL.sub("", text)
    # Drop any other format/control code points the regex does not list.
    return "".join(ch for ch in text if unicodedata.category(ch) not in ("Cc", "Cs"))


def plain(value: object, style: str = "") -> Text:
    """A `Text` that shows `value` literally: markup is not parsed, controls are gone."""
    return Text(clean(value), style=style, no_wrap=True, overflow="ellipsis")


def fit(value: object, width: int) -> str:
    """`clean(value)` cut to `width` cells with an ellipsis, for fixed-width columns."""
    text = clean(value)
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"
