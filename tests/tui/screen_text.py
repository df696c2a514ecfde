"""Read what a running app shows, as text, for assertions."""

from __future__ import annotations

from textual.app import App


def screen_text(app: App[object]) -> str:
    """The visible screen as plain lines (what the terminal would show, without colours)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


def screen_segments(app: App[object]) -> list[tuple[str, str]]:
    """(text, style) of every visible segment, to check that no markup took effect."""
    strips = app.screen._compositor.render_strips()
    return [(segment.text, str(segment.style)) for strip in strips for segment in strip]
