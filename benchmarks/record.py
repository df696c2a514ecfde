"""`oddstui record`'s cost beyond the feed client, and the bytes it writes per message.

Starts `oddstui serve --updates-per-second N` (demo account, every market the desk takes) and
runs the project's FeedClient on it with the recorder's tap (`RecordingTap`: the writer, the
zstandard compressor, the manifest) in front of a book that keeps nothing, for `--seconds`. The
CPU time spent inside the tap (thread time, so other processes do not count) is the recording's
cost beyond the feed client. Prints messages per second received, the tap's CPU per message and
as a share of one core at 2,000 messages a second, and the bytes on disk per message.

    python benchmarks/record.py [--seconds 20] [--updates-per-second 2000]

Target: at most 10 % of a core at 2,000 messages/s. The machine may be shared: say so.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from oddstui.api.feed import FeedClient
from oddstui.recording import open_recording
from oddstui.recording.raw_api import RawApi
from oddstui.recording.tap import RecordingTap
from oddstui.recording.writer import RecordingWriter

ROOT = Path(__file__).resolve().parent.parent
READY = re.compile(r"serving (http://\S+/v3)")


class NullBook:
    complete_markets = False

    def install_snapshot(self, records: Any, *args: Any) -> None:
        pass

    def apply_odds(self, message: Any) -> None:
        pass

    def apply(self, message: Any) -> None:
        pass

    def take_changes(self) -> None:
        return None


class TimedTap(RecordingTap):
    """The tap, with the thread CPU time spent inside it added up."""

    cpu = 0.0
    calls = 0

    def apply_odds(self, message: Any) -> None:
        start = time.thread_time()
        super().apply_odds(message)
        self.cpu += time.thread_time() - start
        self.calls += 1

    def apply(self, message: Any) -> None:
        start = time.thread_time()
        super().apply(message)
        self.cpu += time.thread_time() - start
        self.calls += 1


def start_service(rate: float) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "oddstui",
            "serve",
            "--port",
            "0",
            "--speed",
            "10",
            "--updates-per-second",
            str(rate),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    for line in process.stdout:
        match = READY.search(line)
        if match:
            return process, match.group(1)
    raise RuntimeError("oddstui serve did not start")


async def measure(base: str, folder: Path, seconds: float) -> tuple[TimedTap, float, int]:
    async with RawApi(base, "demo") as api:
        # Every active bookmaker: the feed then carries what the service makes.
        active = [b.name for b in await api.bookmakers() if b.active]
        books = list((await api.select_bookmakers(active)).bookmakers)
        writer = RecordingWriter(folder, source=base, markets=None, bookmakers=books)
        from oddstui.api.feed_url import FeedFilters

        markets = FeedFilters().markets
        tap = TimedTap(writer, api, markets, NullBook())
        client = FeedClient(base, "demo", tap, api, keep_lines=True)
        task = asyncio.create_task(client.run())
        await asyncio.sleep(2.0)  # warm-up: connected and streaming
        tap.cpu, tap.calls = 0.0, 0
        start = time.monotonic()
        await asyncio.sleep(seconds)
        wall = time.monotonic() - start
        cpu, calls = tap.cpu, tap.calls
        client.stop()
        await asyncio.wait_for(task, 10)
        with client.lock:
            writer.close()
        tap.cpu, tap.calls = cpu, calls
        return tap, wall, writer.records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--updates-per-second", type=float, default=2000.0)
    args = parser.parse_args()
    process, base = start_service(args.updates_per_second)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "rec"
            tap, wall, records = asyncio.run(measure(base, folder, args.seconds))
            recording = open_recording(folder)
            size = sum((folder / s.file).stat().st_size for s in recording.manifest.segments)
            raw = tap.writer.bytes_in
    finally:
        process.terminate()
        process.wait(10)
    rate = tap.calls / wall
    per_message = tap.cpu / max(tap.calls, 1)
    print(f"messages received: {tap.calls} in {wall:.1f} s = {rate:,.0f}/s")
    print(f"recording CPU beyond the feed client: {per_message * 1e6:.1f} µs/message")
    print(f"  at 2,000 messages/s: {per_message * 2000 * 100:.1f} % of one core (target <= 10 %)")
    print(f"  at the measured rate: {tap.cpu / wall * 100:.1f} % of one core")
    print(
        f"on disk: {size / max(records, 1):.0f} bytes/record ({records} records, {size:,} bytes;"
        f" {raw / max(size, 1):.1f}x smaller than the {raw:,} bytes of JSON lines)"
    )


if __name__ == "__main__":
    main()
