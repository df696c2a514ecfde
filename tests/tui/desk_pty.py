"""The real desk (`python -m oddstui`) in a pseudo-terminal: what a user who types `oddstui` gets.

`DeskInPty` starts it with a given home folder and base URL (or runs `script`, a wrapper around
`oddstui.cli.main`), collects the screen's text (escape sequences removed) and types keys;
`finish()` quits with `q` and returns the exit status.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import sys
import termios
import time
from pathlib import Path

_ESCAPES = re.compile(rb"\x1b\[[0-9;?<>=]*[A-Za-z~]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]|\x1b[=>78]")


class DeskInPty:
    def __init__(
        self,
        home: Path,
        *args: str,
        size: tuple[int, int] = (160, 50),
        script: Path | None = None,
    ) -> None:
        environment = {k: v for k, v in os.environ.items() if not k.startswith("ODDSTUI_")}
        environment.update(ODDSTUI_HOME=str(home), ODDSTUI_API_KEY="demo", TERM="xterm-256color")
        program = [str(script)] if script is not None else ["-m", "oddstui"]
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: become the desk, never return into the test runner
            try:
                os.execve(sys.executable, [sys.executable, *program, *args], environment)
            finally:
                os._exit(127)
        columns, rows = size
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.raw = b""
        self.status: int | None = None

    @property
    def text(self) -> str:
        return _ESCAPES.sub(b"", self.raw).decode("utf-8", "replace")

    def read_until(self, needle: str, timeout: float = 30.0) -> bool:
        """Read the desk's output until `needle` shows (True) or time is up / the desk ended."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and needle not in self.text:
            if not self._read(0.2):
                break
        return needle in self.text

    def finish(self, timeout: float = 15.0) -> int:
        """Press `q` and wait for the desk to exit; its exit status (-1 if it had to be killed)."""
        if self.status is None:
            os.write(self.fd, b"q")
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and self._read(0.2):
                pass
            self.status = -1
            while time.monotonic() < deadline + 5:
                finished, status = os.waitpid(self.pid, os.WNOHANG)
                if finished:
                    self.status = os.waitstatus_to_exitcode(status)
                    break
                time.sleep(0.1)
            else:
                os.kill(self.pid, 9)
                os.waitpid(self.pid, 0)
            os.close(self.fd)
        return self.status

    def _read(self, wait: float) -> bool:
        """One read; False once the desk has closed its terminal."""
        ready, _, _ = select.select([self.fd], [], [], wait)
        if ready:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                return False
            if not chunk:
                return False
            self.raw += chunk
        return True
