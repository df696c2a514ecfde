"""`oddstui record`'s cost beyond the feed client, and the bytes it writes per message.

Starts `oddstui serve --updates-per-second N` (demo account, every market the desk takes) and
runs the project's FeedClient on it with the recorder's tap (`RecordingTap`: the writer, the
zstandard compressor, the manifest) in front of a book that keeps nothing, for `--seconds`. The
CPU time spent inside the tap (thread time, so other processes do not count) is the recording's
cost beyond the feed client. Prints messages per second received, the tap's CPU per message and
the bytes on disk per message. A loaded machine's service may not reach 2,000 messages a second,
so the messages received are then fed through a fresh tap again at exactly 2,000 a second (the
writer's once-a-second flush then weighs as it would live): its CPU share of one core is the
figure to compare with the target.

    python benchmarks/record.py [--seconds 20] [--updates-per-second 2000]

Target: at most 10 % of a core at 2,000 messages/s. The machine may be shared: say so.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import subprocess
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from measure import emit
from serving import start_serve  # noqa: E402

from oddstui.api.feed import FeedClient
from oddstui.recording import open_recording
from oddstui.recording.raw_api import RawApi
from oddstui.recording.tap import RecordingTap
from oddstui.recording.writer import RecordingWriter

ROOT = Path(__file__).resolve().parent.parent


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
    kept: list[Any] = []  # the live messages, for the paced run

    def apply_odds(self, message: Any) -> None:
        if len(self.kept) < 20_000:
            self.kept.append(message)
        start = time.thread_time()
        super().apply_odds(message)
        self.cpu += time.thread_time() - start
        self.calls += 1

    def apply(self, message: Any) -> None:
        start = time.thread_time()
        super().apply(message)
        self.cpu += time.thread_time() - start
        self.calls += 1


def start_service(rate: float) -> tuple[subprocess.Popen[bytes], str]:
    return start_serve("--speed", "10", "--updates-per-second", str(rate))


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


PRICE = re.compile(r'"(\d+\.\d{2,3})"')


def varied(kept: list[Any], count: int) -> list[Any]:
    """`count` messages made from the live ones, each with fresh random prices, so that
    repeating them neither compresses better nor costs less than a live stream would."""
    rng = random.Random(1)

    def price(_match: re.Match[str]) -> str:
        return f'"{rng.uniform(1.01, 15.0):.3f}"'

    made = []
    for i in range(count):
        source = kept[i % len(kept)]
        made.append(
            SimpleNamespace(
                seq=i + 1,
                line=PRICE.sub(price, source.line),
                bookie=source.bookie,
                event_id=source.event_id,
                received=0.0,
            )
        )
    return made


def paced(tap: TimedTap, folder: Path, rate: float, seconds: float) -> tuple[TimedTap, int]:
    """The live messages again, through a fresh tap at exactly `rate` a second (in batches
    every 10 ms), so the figure does not depend on how fast a loaded service can produce."""
    writer = RecordingWriter(folder, source="paced", markets=None, bookmakers=[])
    again = TimedTap(writer, tap._api, [], NullBook())
    messages = varied(tap.kept, int(rate * seconds) + 1)
    start = time.monotonic()
    sent = 0
    while (now := time.monotonic()) - start < seconds:
        due = int((now - start) * rate)
        while sent < due:
            again.apply_odds(messages[sent % len(messages)])
            sent += 1
        time.sleep(0.01)
    writer.close()
    return again, writer.records


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
            steady, steady_records = paced(tap, Path(tmp) / "paced", 2000.0, args.seconds)
            steady_size = steady.writer.size()
    finally:
        process.terminate()
        process.wait(10)
    rate = tap.calls / wall
    per_message = tap.cpu / max(tap.calls, 1)
    print(f"messages received: {tap.calls} in {wall:.1f} s = {rate:,.0f}/s")
    print(f"recording CPU beyond the feed client: {per_message * 1e6:.1f} µs/message")
    print(f"  times 2,000 messages/s: {per_message * 2000 * 100:.1f} % of one core")
    print(f"  at the measured rate: {tap.cpu / wall * 100:.1f} % of one core")
    print(
        f"on disk: {size / max(records, 1):.0f} bytes/record ({records} records, {size:,} bytes;"
        f" {raw / max(size, 1):.1f}x smaller than the {raw:,} bytes of JSON lines)"
    )
    steady_per = steady.cpu / max(steady.calls, 1)
    print(
        f"the same messages again at exactly 2,000/s for {args.seconds:g} s: "
        f"{steady_per * 1e6:.1f} µs/message, {steady.cpu / args.seconds * 100:.1f} % of one core "
        f"(target <= 10 %); {steady_size / max(steady_records, 1):.0f} bytes/message on disk"
    )
    emit(
        "oddstui record at 2,000 msg/s, CPU beyond the feed client",
        core_pct=steady.cpu / args.seconds * 100,
        us_per_msg=steady_per * 1e6,
        bytes_per_record=size / max(records, 1),
    )


if __name__ == "__main__":
    main()
