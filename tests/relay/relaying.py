"""Start the real `oddstui relay` as a subprocess (like tests/serving.py does for the service)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.serving import read_ready

READY = re.compile(r"relaying (http://\S+/v3)")
DESK_KEYS = tuple(f"k-desk-{n:02d}-7c1e" for n in range(12))


def desk_accounts(folder: Path) -> Path:
    """An accounts file of the relay's own client keys (every one with the feed)."""
    path = folder / "relay-accounts.toml"
    path.write_text("".join(f'[[account]]\nkey = "{key}"\nfeed = true\n\n' for key in DESK_KEYS))
    return path


def launch_relay(
    upstream: str, key: str, folder: Path, *flags: str, port: int = 0, timeout: float = 30.0
) -> tuple[subprocess.Popen[str], str]:
    """`oddstui relay --port PORT ...` once it serves: the process and its base URL."""
    home = folder / "home"
    home.mkdir(exist_ok=True)
    accounts = desk_accounts(folder)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "oddstui",
            "relay",
            "--port",
            str(port),
            "--upstream",
            upstream,
            "--accounts",
            str(accounts),
            *flags,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={
            **os.environ,
            "PYTHONUNBUFFERED": "1",
            "ODDSTUI_API_KEY": key,
            "ODDSTUI_HOME": str(home),
        },
    )
    return process, read_ready(process, READY, timeout, "oddstui relay")
