"""The line `oddstui serve` and `oddstui replay` print when they answer (a contract:
SERVICE.md), and reading it back. No imports: the desk reads it without loading the server."""

from __future__ import annotations

READY_PREFIX = "serving "


def ready_line(url: str) -> str:
    return f"{READY_PREFIX}{url}\n"


def url_of_ready_line(line: str) -> str | None:
    """The base URL a ready line names, or None for any other line."""
    text = line.strip()
    return text.removeprefix(READY_PREFIX) if text.startswith(READY_PREFIX) else None
