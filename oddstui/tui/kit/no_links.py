"""No terminal hyperlinks (OSC 8) on a terminal that cannot show them (`TERM=dumb`).

A line filter, so every widget's links (the Event grid's bookmaker names and any other) are
taken out in one place, after they are drawn, without each widget asking.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter


def links_wanted(environ: Mapping[str, str] = os.environ) -> bool:
    """False on a dumb terminal: it would print an OSC 8 escape as garbage."""
    return environ.get("TERM") != "dumb"


class NoLinks(LineFilter):
    """Drops the hyperlink from every segment's style (the text and colours stay)."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [
            Segment(text, style.update_link(None), control)
            if style is not None and style.link
            else Segment(text, style, control)
            for text, style, control in segments
        ]
