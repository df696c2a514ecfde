"""Desktop notifications for alerts: the terminal's OSC 9 escape, network text made harmless."""

from __future__ import annotations

import contextlib
from typing import Any

from oddstui.tui.text import clean

#: Longest text sent in a desktop notification.
DESKTOP_LIMIT = 200


def osc9(text: str) -> str:
    """The OSC 9 escape for a desktop notification; control characters in `text` are removed,
    so network text can never end the sequence early or start another one."""
    body = clean(text)[:DESKTOP_LIMIT]
    return f"\x1b]9;{body}\x07"


def notify_desktop(app: Any, text: str) -> None:
    """Send `text` as a desktop notification through the app's terminal (not when headless)."""
    driver = getattr(app, "_driver", None)
    if driver is None or app.is_headless:
        return
    with contextlib.suppress(Exception):  # a notification is a courtesy, never a crash
        driver.write(osc9(text))
