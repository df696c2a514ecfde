"""`oddstui replay` at full speed: messages per second to one client, and ten clients in step.

Writes a recording of `--messages` odds messages (200 live events, 20 bookmakers, ML, Spread and
Totals in the built-in service's shapes) that starts with a snapshot and then a long quiet span,
and replays it with `--speed 10000`: the quiet span is three wall seconds, for the clients to
connect; then every message is due at once, so the replay sends as fast as it can. Each client
(a plain websockets connection, its own key) counts odds messages until the last seq.

Prints, for one client and then for ten at once: messages per second from the first message to
the last (per client: min and max), whether every client got every message, how far apart the
clients finished, and the replay process's CPU time: on a shared machine the wall-clock rate is
bounded by the share of a core the process gets, so the messages per CPU second say what the
replay itself costs. Say the machine was shared when quoting the figures.

    python benchmarks/replay.py [--messages 100000]

Target: at least 20,000 messages/s to one client, and ten clients in step.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
from measure import emit
from websockets.asyncio.client import connect

from oddstui.recording.writer import RecordingWriter

ROOT = Path(__file__).resolve().parent.parent
READY = re.compile(r"serving (http://\S+/v3)")
SEQ = re.compile(r'"seq":(\d+)')
T0 = 1_790_000_000.0
QUIET = 30_000.0  # recorded seconds before the first message: 3 wall seconds at 10,000x
BOOKS = [f"Book {i}" for i in range(20)]


def event(i: int) -> dict[str, object]:
    return {
        "id": 1000 + i,
        "home": f"Home {i}",
        "away": f"Away {i}",
        "date": "2026-09-21T14:00:00.000Z",
        "status": "live",
        "sport": {"name": "Football", "slug": "football"},
        "league": {"name": "League", "slug": "league"},
        "scores": {"home": 0, "away": 0},
    }


def markets(rng: random.Random) -> list[dict[str, object]]:
    def price() -> str:
        return f"{rng.uniform(1.05, 9.0):.3f}"

    stamp = "2026-09-21T14:00:00.000Z"
    return [
        {
            "name": "ML",
            "updatedAt": stamp,
            "odds": [{"home": price(), "draw": price(), "away": price()}],
        },
        {
            "name": "Spread",
            "updatedAt": stamp,
            "odds": [{"hdp": h / 2, "home": price(), "away": price()} for h in range(-2, 3)],
        },
        {
            "name": "Totals",
            "updatedAt": stamp,
            "odds": [{"hdp": 1.5 + h, "over": price(), "under": price()} for h in range(3)],
        },
    ]


def write_recording(folder: Path, count: int) -> int:
    rng = random.Random(1)
    now = [T0]
    writer = RecordingWriter(
        folder,
        source="bench",
        markets=["ML", "Spread", "Totals"],
        bookmakers=BOOKS,
        clock=lambda: now[0],
    )
    events = [event(i) for i in range(200)]
    writer.snapshot(events, [{**e, "bookmakers": {}, "urls": {}} for e in events])
    writer.manifest.complete_markets = True
    seq = 0
    for i in range(count):
        seq = 10_000 + i
        now[0] = T0 + QUIET + i * 1e-7
        message = {
            "type": "updated",
            "seq": seq,
            "timestamp": "2026-09-21T14:00:00.000Z",
            "id": 1000 + rng.randrange(200),
            "bookie": rng.choice(BOOKS),
            "url": "",
            "markets": markets(rng),
        }
        writer.message(seq, message)
    writer.close()
    return seq


def accounts(folder: Path, clients: int) -> Path:
    path = folder / "accounts.toml"
    path.write_text(
        "".join(
            f'[[account]]\nkey = "k-bench-{i}"\nplan = "paid"\nfeed = true\n\n'
            for i in range(clients)
        )
    )
    return path


async def client(base: str, key: str, last: int) -> tuple[int, float, float]:
    """(odds messages, time of the first, time of the last) until seq `last`."""
    url = base.replace("http://", "ws://") + f"/ws?apiKey={key}&markets=ML,Spread,Totals"
    count, first, latest = 0, 0.0, 0
    async with connect(url, max_size=None, compression=None) as ws:
        async for frame in ws:
            seqs = SEQ.findall(frame if isinstance(frame, str) else frame.decode())
            if not seqs or '"welcome"' in frame:
                continue
            if not count:
                first = time.monotonic()
            count += len(seqs)
            latest = int(seqs[-1])
            if latest >= last:
                return count, first, time.monotonic()
    return count, first, time.monotonic()


def run(folder: Path, clients: int, last: int, expected: int) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "oddstui",
            "replay",
            str(folder / "rec"),
            "--port",
            "0",
            "--speed",
            "10000",
            "--accounts",
            str(accounts(folder, clients)),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    try:
        assert process.stdout is not None
        base = ""
        for line in process.stdout:
            match = READY.search(line)
            if match:
                base = match.group(1)
                break

        async def together() -> list[tuple[int, float, float]]:
            return await asyncio.wait_for(
                asyncio.gather(*(client(base, f"k-bench-{i}", last) for i in range(clients))),
                300,
            )

        replay_process = psutil.Process(process.pid)
        before = replay_process.cpu_times()
        results = asyncio.run(together())
        after = replay_process.cpu_times()
    finally:
        process.terminate()
        process.wait(10)
    rates = [count / max(end - start, 1e-9) for count, start, end in results]
    complete = all(count == expected for count, _, _ in results)
    ends = [end for _, _, end in results]
    print(
        f"{clients} client(s): {min(rates):,.0f} to {max(rates):,.0f} messages/s each "
        f"({sum(rates):,.0f}/s in all); every message to every client: {complete}; "
        f"finished within {max(ends) - min(ends):.2f} s of each other"
    )
    cpu = (after.user + after.system) - (before.user + before.system)
    busy = max(ends) - min(start for _, start, _ in results)
    print(
        f"  the replay process: {cpu:.2f} s of CPU in {busy:.2f} s ({cpu / busy * 100:.0f} % of"
        f" a core): {expected / cpu:,.0f} messages per CPU second"
        f"{'' if clients == 1 else ' (each sent to every client)'}"
    )
    emit(f"oddstui replay at full speed, {clients} client(s)", msg_per_s_each=min(rates),
         msg_per_cpu_s=expected / cpu)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        last = write_recording(folder / "rec", args.messages)
        size = sum(p.stat().st_size for p in (folder / "rec").glob("*.zst"))
        print(f"recording: {args.messages:,} messages, {size:,} bytes on disk")
        for clients in (1, 10):
            run(folder, clients, last, args.messages)


if __name__ == "__main__":
    main()
