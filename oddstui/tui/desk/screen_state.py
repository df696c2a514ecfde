"""Where the desk is, written to `ODDSTUI_STATE_FILE` for tests that cannot read the screen (in
a browser the terminal is a canvas); and whether the desk runs in a browser (`ODDSTUI_WEB`)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from oddstui.config import STATE_FILE_ENV, WEB_ENV


def in_browser() -> bool:
    return os.environ.get(WEB_ENV) == "1"


def state_path() -> Path | None:
    name = os.environ.get(STATE_FILE_ENV)
    return Path(name) if name else None


def write_screen_state(path: Path, mode: str, screen: str) -> None:
    """Replace the file at once (a reader never sees half of it)."""
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps({"mode": mode, "screen": screen, "pid": os.getpid()}))
    os.replace(part, path)
