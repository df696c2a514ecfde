"""Start and stop `oddstui serve` for a benchmark, one way for every benchmark that needs it."""

from __future__ import annotations

import os
import selectors
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from oddstui.server.ready_line import url_of_ready_line  # noqa: E402

START_TIMEOUT = 60.0


def start_serve(
    *flags: str, env: dict[str, str] | None = None, timeout: float = START_TIMEOUT
) -> tuple[subprocess.Popen[bytes], str]:
    """`oddstui serve --port 0 FLAGS...` once it serves: the process and its base URL. Exits
    the benchmark with the reason when no ready line comes within `timeout` seconds."""
    process = subprocess.Popen(
        [sys.executable, "-m", "oddstui", "serve", "--port", "0", *flags],
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT), **(env or {})},
    )
    assert process.stdout is not None
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout
    line = b""
    while time.monotonic() < deadline and not line.endswith(b"\n"):
        if selector.select(timeout=0.2):
            chunk = os.read(process.stdout.fileno(), 1)
            if not chunk:
                break
            line += chunk
        elif process.poll() is not None:
            break
    selector.close()
    base = url_of_ready_line(line.decode(errors="replace"))
    if base is None:
        stop_serve(process)
        raise SystemExit(f"oddstui serve did not start: {line.decode(errors='replace')!r}")
    return process, base


def stop_serve(process: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    """Ask it to stop; kill it if it has not within `timeout` seconds."""
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
