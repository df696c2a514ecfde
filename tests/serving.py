"""Start the real `oddstui serve` as a subprocess and read its ready line; stop it with SIGTERM.

Shared by the client, feed-client and TUI tests (the service's own contract tests keep a stricter
reader in tests/service/conftest.py, since the ready line itself is what they test).
"""

from __future__ import annotations

import os
import re
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path

READY = re.compile(r"serving (http://\S+/v3)")


def launch(*flags: str, timeout: float = 30.0) -> tuple[subprocess.Popen[str], str]:
    """`oddstui serve <flags>`, once it accepts connections: the process and its base URL."""
    process = subprocess.Popen(
        [sys.executable, "-m", "oddstui", "serve", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    return process, read_ready(process, READY, timeout, "oddstui serve")


def launch_replay(folder: Path, *flags: str) -> tuple[subprocess.Popen[str], str]:
    """`oddstui replay FOLDER --port 0 <flags>` once it serves: the process and its base URL."""
    process = subprocess.Popen(
        [sys.executable, "-m", "oddstui", "replay", str(folder), "--port", "0", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    return process, read_ready(process, READY, 60.0, "oddstui replay")


def read_ready(
    process: subprocess.Popen[str], ready: re.Pattern[str], timeout: float, what: str
) -> str:
    """The base URL from the process's ready line; it is stopped if none comes in time."""
    assert process.stdout is not None
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited with {process.returncode}")
        if selector.select(timeout=0.2):
            match = ready.search(process.stdout.readline())
            if match:
                return match.group(1)
    terminate(process)
    raise RuntimeError(f"{what} did not print its ready line in time")


def terminate(process: subprocess.Popen[str]) -> None:
    """SIGTERM, and a kill if it has not exited within ten seconds."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)
