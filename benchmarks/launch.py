"""How long a launch takes: `oddstui serve` to its ready line, and the desk to its first live rows.

- serve: starts `python -m oddstui serve --port 0` and times launch -> the ready line
  (`serving http://...`), `--runs` times, then stops it with SIGINT; also the CPU time the
  process had used by its ready line (Linux), which a busy machine inflates far less than the
  wall time (on an idle machine the two are close).
- desk: starts `python -m oddstui` with no API key (it starts the built-in service) in a
  pseudo-terminal of 120x40 with a fresh data folder, and times launch -> the first live row on
  the screen that opens (the Live screen: a row with a score and a running clock, `2-1  63:12`;
  `2-1?` until the feed confirms the score), and to the first confirmed one, `--runs` times,
  then quits with `q`.

Launches run as an installed desk does after its first start: with Python's bytecode caches
written (PYTHONDONTWRITEBYTECODE is dropped, and one launch of each kind warms the caches first
and is not counted); with the variable set, every launch compiles every module again.

Prints p50 and max of each. The figures depend on the machine's load: say so when quoting them.

    python benchmarks/launch.py [--runs 5] [--desk-runs 3]
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

from measure import emit, percentile

ROOT = Path(__file__).resolve().parent.parent
ESCAPES = re.compile(rb"\x1b\[[0-9;?<>=]*[A-Za-z~]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]|\x1b[=>78]")
# A score, then a clock in any sport's own form: `Q4 7:12`, `56'`, `45+2'`, `▲6`, `12.3 ov`,
# `S2 4-3`, `End 3`, `Hole 12`, `1:19`. Until the feed confirms a score it is marked `?` (`2-1?`):
# the row is shown; it is confirmed once the feed is live.
CLOCK = r"(?:(?:[A-Z]+\d*|End|Hole) )?(?:\d+:\d\d|\d+(?:\+\d+)?'|[▲▼]\d+|\d+\.\d ov|\d+-\d+|\d+)\b"
LIVE_ROW = re.compile(r"\d+-\d+\?? +" + CLOCK)
CONFIRMED_ROW = re.compile(r"\d+-\d+ +" + CLOCK)
TIMEOUT = 60.0


def environment(home: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("ODDSTUI_") and k != "PYTHONDONTWRITEBYTECODE"
    }
    env.update(ODDSTUI_HOME=home, PYTHONUNBUFFERED="1", TERM="xterm-256color")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    return env


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc); NaN elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def time_serve(cpu: list[float]) -> float:
    launched = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-m", "oddstui", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        env=environment(tempfile.mkdtemp(prefix="oddstui-launch-")),
    )
    assert process.stdout is not None
    try:
        line = process.stdout.readline().decode()
        ready = time.monotonic() - launched
        cpu.append(cpu_seconds(process.pid))
        if not line.startswith("serving http://"):
            raise SystemExit(f"no ready line: {line!r}")
        return ready
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(30)


def time_desk() -> tuple[float, float]:
    home = tempfile.mkdtemp(prefix="oddstui-launch-")
    launched = time.monotonic()
    pid, fd = pty.fork()
    if pid == 0:  # the child becomes the desk
        try:
            os.execve(sys.executable, [sys.executable, "-m", "oddstui"], environment(home))
        finally:
            os._exit(127)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    raw = b""
    seen = None
    confirmed = None
    try:
        while time.monotonic() - launched < TIMEOUT:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            raw += chunk
            screen = ESCAPES.sub(b"", raw[-20000:]).decode("utf-8", "replace")
            if seen is None and LIVE_ROW.search(screen):
                seen = time.monotonic() - launched
            if CONFIRMED_ROW.search(screen):
                confirmed = time.monotonic() - launched
                break
    finally:
        os.write(fd, b"q")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            done, _ = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            try:
                select.select([fd], [], [], 0.2)
                os.read(fd, 65536)
            except OSError:
                pass
        else:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(fd)
    if seen is None or confirmed is None:
        raise SystemExit("the desk showed no live row")
    return seen, confirmed


def report(name: str, values: list[float]) -> None:
    runs = ", ".join(f"{v:.2f}" for v in values)
    print(
        f"{name}: p50 {percentile(values, 0.5):.2f} s, max {max(values):.2f} s ({runs})", flush=True
    )
    emit(name, seconds=values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="serve launches")
    parser.add_argument("--desk-runs", type=int, default=3, help="desk launches")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
    cpu: list[float] = []
    time_serve([])  # writes the bytecode caches
    report("oddstui serve: launch -> ready line", [time_serve(cpu) for _ in range(args.runs)])
    report("oddstui serve: CPU used by the ready line", cpu)
    if args.desk_runs:
        time_desk()  # the desk's own modules' caches
        desks = [time_desk() for _ in range(args.desk_runs)]
        report("desk (no key): launch -> first live row", [shown for shown, _ in desks])
        report("desk (no key): launch -> its score confirmed by the feed", [c for _, c in desks])


if __name__ == "__main__":
    main()
