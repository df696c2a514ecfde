"""The TUI under load: the real app in a pseudo-terminal (120x40) on the Event screen of a busy
event, fed by the real service, with the patched grid and, at the same time, a naive DataTable.

    python benchmarks/tui_live.py [--seconds 30] [--updates-per-second 3000] [--speed 1]
                                  [--size 200x50] [--apart]

`--size` sets the pty (120x40 by default): at 200x50 the Event screen shows several markets side
by side, the naive grid still one. `--apart` runs the two variants one after the other instead
of at once: on a 2-core box the service (about 85 % of a core at 4,000 changes/s) and two apps
side by side want more than two cores, so each app's paint then waits for a core.

Steps:
1. Start `oddstui serve --port 0` with the given odds-change rate (about half of the world's
   changes are quotes of the ~12 bookmakers of the default selection, so 3000 gives ~1,000 odds
   messages a second on each app's feed). Three keys: the probe's and one per variant, since
   the feed takes one connection per key.
2. Probe the feed for a few seconds to measure the message rate and pick the busiest event.
3. Run both variants side by side, each `oddstui`'s real app (`build_app`, its own feed, the
   Event screen of that event) in its own pty of 120x40: the desk's screen with a paint log,
   and the naive grid (`bench_event.py`). After a warm-up, measure for `--seconds`:
   - message-to-paint latency: for each paint, now minus the receive stamp of the newest
     message painted (both in the app process, `time.monotonic()`), p50 and p95
   - terminal bytes per second read from the pty
   - CPU of the app process (all threads, feed reader included), in % of one core
   - event-loop lag: how late a 50 ms sleep wakes in the app's loop, p99
Targets: p95 <= 150 ms, <= 20 KiB/s, CPU <= 25 %, >= 10x fewer bytes than naive.

The app settles its heap (one full garbage collection, then `gc.freeze`) 5 s after start and
once a minute (`oddstui/tui/desk/gc_settle.py`); with the default 30 s window after an 8 s warm-up
the minute's full collection falls outside the window, so each app sees at most one such stall a
minute beyond what is measured here. The machine's load moves every figure: run it on a quiet
box, and read the feed rate column (what each app really applied) before comparing runs.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import fcntl
import json
import os
import pty
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import psutil
from measure import drain_pty, emit, percentile
from serving import start_serve

#: The probe's key and one key per variant (one feed connection per key), all on the same plan
#: and the service's default bookmaker selection.
PROBE_KEY, KEYS = "bench-probe", ("bench-patched", "bench-naive")
COLUMNS, ROWS = 120, 40
WARM_UP = 8.0


# --------------------------------------------------------------------------- the service


def start_service(rate: float, speed: float) -> tuple[subprocess.Popen[bytes], str]:
    accounts = Path(tempfile.mkdtemp(prefix="oddstui-tui-bench-")) / "accounts.toml"
    accounts.write_text(
        "".join(
            f'[[account]]\nkey = "{key}"\nplan = "paid"\nfeed = true\nrequests_per_hour = 100000\n'
            for key in (PROBE_KEY, *KEYS)
        )
    )
    return start_serve(
        "--seed",
        "7",
        "--speed",
        str(speed),
        "--updates-per-second",
        str(rate),
        "--accounts",
        str(accounts),
    )


async def probe_feed(base_url: str, seconds: float) -> tuple[float, int]:
    """(odds messages per second on the app's feed, the event with the most of them)."""
    from websockets.asyncio.client import connect

    from oddstui.api.feed_url import FeedFilters, feed_url

    counts: collections.Counter[int] = collections.Counter()
    total = 0
    url = feed_url(base_url, PROBE_KEY, FeedFilters(), None)
    async with connect(url, max_size=2**26) as ws:
        started = time.monotonic()
        while time.monotonic() - started < seconds:
            frame = await ws.recv()
            for line in (frame if isinstance(frame, str) else frame.decode()).splitlines():
                message = json.loads(line)
                if message.get("type") in ("created", "updated"):
                    counts[int(message["id"])] += 1
                    total += 1
    return total / seconds, counts.most_common(1)[0][0]


# --------------------------------------------------------------------------- one run of the app


@dataclass
class Figures:
    p50_ms: float
    p95_ms: float
    bytes_per_s: float
    cpu_percent: float
    lag_p99_ms: float
    paints: int
    feed_rate: float  # feed messages the app's book applied per second


class AppRun:
    """One app in its own pty, started with its own key, measured between `begin` and `end`."""

    def __init__(
        self, base_url: str, key: str, event_id: int, naive: bool, size: tuple[int, int]
    ) -> None:
        columns, rows = size
        folder = Path(tempfile.mkdtemp(prefix="oddstui-tui-bench-"))
        self.log = folder / "paint.log"
        env = {
            **os.environ,
            "TERM": "xterm-256color",
            "COLUMNS": str(columns),
            "LINES": str(rows),
            "ODDSTUI_HOME": str(folder),
        }
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.child = subprocess.Popen(
            [sys.executable, __file__, "--child", base_url, key, str(event_id), str(self.log)]
            + (["naive"] if naive else []),
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,
        )
        os.close(slave)
        self.received: list[tuple[float, int]] = []
        self.reader = threading.Thread(target=drain_pty, args=(self.master, self.received))
        self.reader.daemon = True
        self.reader.start()
        self.process = psutil.Process(self.child.pid)
        self.start = self.end = 0.0
        self.cpu_before = self.cpu = 0.0

    def begin(self) -> None:
        self.cpu_before = sum(self.process.cpu_times()[:2])
        self.start = time.monotonic()

    def finish(self) -> None:
        self.end = time.monotonic()
        cpu_seconds = sum(self.process.cpu_times()[:2]) - self.cpu_before
        self.cpu = cpu_seconds / (self.end - self.start) * 100

    def stop(self) -> None:
        try:
            os.write(self.master, b"q")
            self.child.wait(timeout=15)
        except (OSError, subprocess.TimeoutExpired):
            self.child.kill()
            self.child.wait()
        self.reader.join(timeout=2)
        os.close(self.master)

    def figures(self) -> Figures:
        start, end = self.start, self.end
        terminal = sum(size for stamp, size in list(self.received) if start <= stamp < end)
        latencies, lags, applied = [], [], []
        for line in self.log.read_text().splitlines():
            kind, *values = line.split()
            if kind == "paint" and start <= float(values[0]) < end:
                latencies.append((float(values[0]) - float(values[1])) * 1000)
            elif kind == "lag" and start <= float(values[1]) < end:
                lags.append(float(values[0]) * 1000)
            elif kind == "applied" and start <= float(values[0]) < end:
                applied.append((float(values[0]), int(values[1])))
        feed_rate = float("nan")
        if len(applied) > 1:
            feed_rate = (applied[-1][1] - applied[0][1]) / (applied[-1][0] - applied[0][0])
        return Figures(
            p50_ms=statistics.median(latencies) if latencies else float("nan"),
            p95_ms=percentile(latencies, 0.95),
            bytes_per_s=terminal / (end - start),
            cpu_percent=self.cpu,
            lag_p99_ms=percentile(lags, 0.99),
            paints=len(latencies),
            feed_rate=feed_rate,
        )


VARIANTS = (("patched", KEYS[0], False), ("naive", KEYS[1], True))


def measure(runs: dict[str, AppRun], seconds: float) -> dict[str, Figures]:
    """Warm the started apps up, measure them together for `seconds`, stop them."""
    try:
        time.sleep(WARM_UP)
        for run in runs.values():
            run.begin()
        time.sleep(seconds)
        for run in runs.values():
            run.finish()
    finally:
        for run in runs.values():
            run.stop()
    return {name: run.figures() for name, run in runs.items()}


def run_side_by_side(
    base_url: str, event_id: int, seconds: float, size: tuple[int, int] = (COLUMNS, ROWS)
) -> dict[str, Figures]:
    """Both variants at once, each with its own key: the same world, the same moment."""
    return measure(
        {name: AppRun(base_url, key, event_id, naive, size) for name, key, naive in VARIANTS},
        seconds,
    )


def run_apart(
    base_url: str, event_id: int, seconds: float, size: tuple[int, int] = (COLUMNS, ROWS)
) -> dict[str, Figures]:
    """One variant after the other, each alone beside the service (on a 2-core box the service
    and two apps side by side want more than the cores there are, so each app's paint waits
    for a core as much as for its own work)."""
    results: dict[str, Figures] = {}
    for name, key, naive in VARIANTS:
        results |= measure({name: AppRun(base_url, key, event_id, naive, size)}, seconds)
    return results


# --------------------------------------------------------------------------- the child: the app


def child(base_url: str, key: str, event_id: int, log_path: str, naive: bool) -> None:
    from bench_event import LoggedEventScreen, NaiveEventScreen
    from paint_log import PaintLog

    from oddstui.tui.launch import build_app

    app = build_app(base_url, key)
    screen = NaiveEventScreen if naive else LoggedEventScreen

    async def open_event(pilot: object) -> None:
        await asyncio.sleep(1.0)
        app.push_screen(screen(event_id, PaintLog(log_path)))

    app.run(auto_pilot=open_event)


# --------------------------------------------------------------------------- main


def main() -> None:
    if len(sys.argv) >= 6 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6:] == ["naive"])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--updates-per-second", type=float, default=3000.0)
    parser.add_argument("--speed", type=float, default=1.0)
    parser.add_argument("--size", default=f"{COLUMNS}x{ROWS}", help="the pty, COLUMNSxROWS")
    parser.add_argument(
        "--apart", action="store_true", help="run the variants one after the other, not at once"
    )

    args = parser.parse_args()
    try:
        size = tuple(int(part) for part in args.size.lower().split("x"))
        if len(size) != 2 or min(size) < 20:
            raise ValueError
    except ValueError:
        parser.exit(2, f"--size: expected COLUMNSxROWS such as 200x50, got {args.size!r}\n")
    service, base_url = start_service(args.updates_per_second, args.speed)
    try:
        time.sleep(2.0)
        rate, event_id = asyncio.run(probe_feed(base_url, 5.0))
        print(f"service {base_url}: {rate:.0f} odds messages/s on the app's feed")
        print(
            f"Event screen of event {event_id}, pty {size[0]}x{size[1]}, {args.seconds:.0f} s, "
            + ("one variant after the other" if args.apart else "both variants side by side")
            + " (one key each)"
        )
        run = run_apart if args.apart else run_side_by_side
        results = run(base_url, event_id, args.seconds, (size[0], size[1]))
    finally:
        service.send_signal(signal.SIGTERM)
        try:
            service.wait(timeout=15)
        except subprocess.TimeoutExpired:
            service.kill()
    print(
        f"{'variant':<8} {'p50 ms':>8} {'p95 ms':>8} {'KiB/s':>8} {'CPU %':>7} "
        f"{'lag p99 ms':>10} {'paints':>7} {'feed msg/s':>10}"
    )
    for name, figures in results.items():
        print(
            f"{name:<8} {figures.p50_ms:8.1f} {figures.p95_ms:8.1f} "
            f"{figures.bytes_per_s / 1024:8.1f} {figures.cpu_percent:7.1f} "
            f"{figures.lag_p99_ms:10.1f} {figures.paints:7d} {figures.feed_rate:10.0f}"
        )
    patched, naive = results["patched"], results["naive"]
    ratio = naive.bytes_per_s / patched.bytes_per_s if patched.bytes_per_s else float("inf")
    print(f"naive / patched terminal bytes: {ratio:.1f}x")
    emit(
        f"TUI Event screen, {size[0]}x{size[1]}",
        p50_ms=patched.p50_ms,
        p95_ms=patched.p95_ms,
        kib_per_s=patched.bytes_per_s / 1024,
        cpu_pct=patched.cpu_percent,
        fewer_bytes_x=ratio,
    )
    checks = [
        ("p95 <= 150 ms", patched.p95_ms <= 150),
        ("<= 20 KiB/s", patched.bytes_per_s <= 20 * 1024),
        ("CPU <= 25 %", patched.cpu_percent <= 25),
        (">= 10x fewer bytes than naive", ratio >= 10),
    ]
    print("targets: " + ", ".join(f"{name} {'met' if ok else 'MISSED'}" for name, ok in checks))


if __name__ == "__main__":
    main()
