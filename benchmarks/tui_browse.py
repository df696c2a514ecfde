"""The browsing screens under a real pseudo-terminal: terminal bytes per second and CPU.

Runs `python -m oddstui` (no key: the built-in service in the same process) at 120x40 on the
Live screen, lets it settle, then measures for `--seconds`: bytes the app writes to the terminal
per second (clocks ticking, scores and status bar patched) and the CPU of the whole process
(TUI plus embedded service). Prints one line per figure.

    python benchmarks/tui_browse.py [--seconds 20] [--speed 1]
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import select
import struct
import sys
import tempfile
import termios
import time

import psutil


def pump(fd: int, seconds: float) -> int:
    received, end = 0, time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                received += len(os.read(fd, 65536))
            except OSError:
                break
    return received


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--settle", type=float, default=12.0)
    parser.add_argument("--speed", default="1")
    args = parser.parse_args()
    home = tempfile.mkdtemp(prefix="oddstui-bench-")
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(ODDSTUI_HOME=home, TERM="xterm-256color")
        os.environ.pop("ODDSTUI_API_KEY", None)
        os.execvp(sys.executable, [sys.executable, "-m", "oddstui", "--speed", args.speed])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    first = pump(fd, args.settle)
    process = psutil.Process(pid)
    before, started = process.cpu_times(), time.monotonic()
    received = pump(fd, args.seconds)
    elapsed = time.monotonic() - started
    after = process.cpu_times()
    cpu = (after.user + after.system - before.user - before.system) / elapsed * 100
    os.write(fd, b"q")
    pump(fd, 3.0)
    os.waitpid(pid, 0)
    print(f"first paint and settling ({args.settle:.0f} s): {first / 1024:.1f} KiB")
    print(f"live screen, 120x40, speed {args.speed}: {received / elapsed / 1024:.1f} KiB/s")
    print(f"cpu of the process (TUI + embedded service): {cpu:.0f}% of one core")
    print(f"load average during the run: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
