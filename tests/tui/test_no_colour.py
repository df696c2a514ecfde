"""TERM=dumb and NO_COLOR honoured: the real `oddstui` in a pseudo-terminal, on the real service,
writes no colour escapes at all (and does write them on an ordinary terminal)."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time
from pathlib import Path

import pytest

from tests.tui.conftest import DEMO_KEY, Service

#: 24-bit (38;2 / 48;2), 256-colour (38;5 / 48;5) and the 16 basic foreground/background codes.
COLOUR = re.compile(rb"\x1b\[[0-9;]*?(?:[34]8;[25];|\b(?:3[0-7]|4[0-7]|9[0-7]|10[0-7])m)")
#: An SGR sequence that turns on reverse video (7), as the cursor row is drawn without colour.
REVERSED = re.compile(rb"\x1b\[(?:[0-9;]*;)?7(?:;[0-9;]*)?m")


def run_desk(service: Service, home: Path, **environ: str) -> bytes:
    """What `oddstui` writes to an 80x24 terminal in its first seconds, up to `q`."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLORTERM")}
    env.update(environ, ODDSTUI_HOME=str(home), ODDSTUI_API_KEY=DEMO_KEY)
    pid, fd = pty.fork()
    if pid == 0:  # the child: the desk, on the service under test
        os.execve(
            sys.executable, [sys.executable, "-m", "oddstui", "--base-url", service.base_url], env
        )
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    out, quit_at, deadline = b"", time.monotonic() + 5, time.monotonic() + 15
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready:
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    break  # the desk quit
            if quit_at and time.monotonic() > quit_at:
                os.write(fd, b"q")
                quit_at = 0.0
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
        os.close(fd)
    return out


@pytest.mark.slow
@pytest.mark.parametrize(
    "environ",
    [{"TERM": "dumb"}, {"TERM": "xterm-256color", "NO_COLOR": "1"}],
    ids=["term-dumb", "no-color"],
)
def test_no_colour_escapes(fast_service: Service, home: Path, environ: dict[str, str]) -> None:
    out = run_desk(fast_service, home, **environ)
    assert b"Live" in out and b"Quit" in out  # it did draw the screen
    assert not COLOUR.findall(out)
    assert REVERSED.search(out), "the cursor row is reversed (docs/screens.md)"


@pytest.mark.slow
def test_an_ordinary_terminal_gets_colours(fast_service: Service, home: Path) -> None:
    out = run_desk(fast_service, home, TERM="xterm-256color", COLORTERM="truecolor")
    assert b"Live" in out
    assert COLOUR.findall(out)
