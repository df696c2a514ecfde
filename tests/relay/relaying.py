"""Start the real `oddstui relay` as a subprocess (like tests/serving.py does for the service)."""

from __future__ import annotations

import os
import re
import selectors
import subprocess
import sys
import time
from pathlib import Path

from tests.serving import terminate

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
    assert process.stdout is not None
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"oddstui relay exited with {process.returncode}")
        if selector.select(timeout=0.2):
            match = READY.search(process.stdout.readline())
            if match:
                return process, match.group(1)
    terminate(process)
    raise RuntimeError("oddstui relay did not print its ready line in time")
