"""Feed ingest: how many feed messages a second one core turns into book state.

It replays a stream of at least 100,000 odds messages through the socket reader's own path
(`FeedClient._on_frame`: split, parse, seq check, `OddsBook.apply`) and prints messages per
second and memory. The stream is either recorded from the built-in service (`--source service`,
the default: it starts `oddstui serve` on a free port at a high update rate and records raw
frames) or synthesised in the same shapes (`--source synth`, no service needed).

    python benchmarks/feed_ingest.py [--source service|synth] [--messages 100000] [--repeat 5]
                                     [--markets A,B,...]

The stream is ingested `--repeat` times, each into a fresh book, and the median run is shown.

Target: 50,000 messages/s or more on one core (set for messages of ML, Spread and Totals: with
`--markets ML,Spread,Totals`; the desk's 20 markets make each message several times longer).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import resource
import time
import tracemalloc
from pathlib import Path

import msgspec
from measure import emit
from serving import start_serve, stop_serve

from oddstui.api.feed import FeedClient
from oddstui.api.feed_url import FEED_MARKETS, FeedFilters, feed_url
from oddstui.api.messages import JSON_DECODER
from oddstui.book.oddsbook import OddsBook

BOOKMAKERS = [
    "Bet365",
    "Pinnacle",
    "Unibet",
    "William Hill",
    "Betfair Exchange",
    "SingBet",
    "1xBet",
    "Betway",
    "Bwin",
    "888sport",
    "Marathonbet",
    "Betsson",
]


def _price(rng: random.Random, base: float) -> str:
    return f"{max(1.01, base * rng.uniform(0.9, 1.1)):.3f}"


def _markets(rng: random.Random) -> list[dict[str, object]]:
    """ML, Spread and Totals as WIRE.md shows them (the app's default subscription)."""
    stamp = "2026-11-21T10:00:01.250Z"
    return [
        {
            "name": "ML",
            "updatedAt": stamp,
            "odds": [
                {
                    "home": _price(rng, 2.4),
                    "draw": _price(rng, 3.3),
                    "away": _price(rng, 3.0),
                    "max": 500,
                }
            ],
        },
        {
            "name": "Spread",
            "updatedAt": stamp,
            "odds": [
                {"hdp": hdp, "home": _price(rng, 1.9), "away": _price(rng, 1.9)}
                for hdp in (-1.5, -0.5, 0.5)
            ],
        },
        {
            "name": "Totals",
            "updatedAt": stamp,
            "odds": [
                {"hdp": hdp, "over": _price(rng, 1.9), "under": _price(rng, 1.9)}
                for hdp in (1.5, 2.5, 3.5)
            ],
        },
    ]


def synthesise(count: int, batch: int = 20) -> list[str]:
    """`count` updated messages over 2,000 events x 12 bookmakers, `batch` per frame."""
    rng = random.Random(1)
    frames: list[str] = []
    lines: list[str] = []
    for seq in range(1, count + 1):
        ms = seq % 1000
        message = {
            "type": "updated",
            "seq": seq,
            "timestamp": f"2026-11-21T10:{seq // 60000 % 60:02d}:{seq // 1000 % 60:02d}.{ms:03d}Z",
            "id": 70_000_000 + rng.randrange(2000),
            "bookie": rng.choice(BOOKMAKERS),
            "url": "https://bet365.example/e/1",
            "markets": _markets(rng),
        }
        lines.append(json.dumps(message, separators=(",", ":")))
        if len(lines) == batch:
            frames.append("\n".join(lines))
            lines = []
    if lines:
        frames.append("\n".join(lines))
    return frames


async def _record(
    base_url: str, key: str, count: int, seconds: float, markets: tuple[str, ...]
) -> list[str]:
    import httpx
    from websockets.asyncio.client import connect

    # Select every active bookmaker, so that the world's whole update rate reaches the client.
    async with httpx.AsyncClient(base_url=base_url + "/") as http:
        names = [b["name"] for b in (await http.get("bookmakers")).json() if b.get("active")]
        params = {"apiKey": key, "bookmakers": ",".join(names)}
        (await http.put("bookmakers/selected/select", params=params)).raise_for_status()
    url = feed_url(base_url, key, FeedFilters(markets=markets, channels=("odds",)), None)
    frames: list[str] = []
    seen = 0
    deadline = time.monotonic() + seconds
    async with connect(url, max_size=64 * 2**20, compression=None) as ws:
        while seen < count and time.monotonic() < deadline:
            frame = await ws.recv()
            assert isinstance(frame, str)
            lines = [
                line for line in frame.split("\n") if '"seq"' in line and "welcome" not in line
            ]
            if lines:
                frames.append("\n".join(lines))
                seen += len(lines)
    return frames


def extend(frames: list[str], count: int) -> list[str]:
    """Repeat a recording, with fresh increasing seqs, until it holds `count` messages."""
    lines = [json.loads(line) for frame in frames for line in frame.split("\n")]
    sizes = [frame.count("\n") + 1 for frame in frames]
    out: list[str] = []
    seq = 0
    while seq < count:
        position = 0
        for size in sizes:
            batch = []
            for message in lines[position : position + size]:
                seq += 1
                batch.append(json.dumps({**message, "seq": seq}, separators=(",", ":")))
            position += size
            out.append("\n".join(batch))
            if seq >= count:
                break
    return out


def record_from_service(
    count: int, rate: int, seconds: float, markets: tuple[str, ...] = FEED_MARKETS
) -> list[str]:
    service, base = start_serve("--speed", "60", "--updates-per-second", str(rate))
    try:
        frames = asyncio.run(_record(base, "demo", count, seconds, markets))
    finally:
        stop_serve(service)
    recorded = sum(frame.count("\n") + 1 for frame in frames)
    print(f"recorded:          {recorded:,} messages in {len(frames):,} frames")
    return frames if recorded >= count else extend(frames, count)


def lines_per_message(frames: list[str]) -> float:
    """Price lines (odds entries) an odds message carries, on average."""
    messages = lines = 0
    for frame in frames:
        for text in frame.split("\n"):
            message = json.loads(text)
            if message.get("type") in ("created", "updated"):
                messages += 1
                lines += sum(len(market.get("odds", ())) for market in message.get("markets", ()))
    return lines / max(messages, 1)


def ingest(frames: list[str]) -> tuple[int, float, float, OddsBook, FeedClient]:
    """Messages applied, wall seconds, CPU seconds of this thread, the book and the client."""
    book = OddsBook()
    client = FeedClient("http://127.0.0.1:1/v3", None, book, last_seq=0)
    gc.collect()
    started, cpu_started = time.perf_counter(), time.thread_time()
    for frame in frames:
        client._on_frame(frame, 0)  # the socket reader's own path
    elapsed, cpu = time.perf_counter() - started, time.thread_time() - cpu_started
    return client.counters.messages, elapsed, cpu, book, client


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", choices=("service", "synth"), default="service")
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--rate", type=int, default=2000, help="service updates per second")
    parser.add_argument("--seconds", type=float, default=30.0, help="longest recording time")
    parser.add_argument(
        "--gc",
        choices=("default", "relaxed", "off"),
        default="default",
        help="cyclic GC during the ingest: Python's defaults, thresholds (50000, 50, 100), or off",
    )
    parser.add_argument("--repeat", type=int, default=5, help="ingest runs; the median is shown")
    parser.add_argument(
        "--markets",
        default=",".join(FEED_MARKETS),
        help="the markets subscribed to when recording (default: the desk's 20)",
    )
    parser.add_argument("--save", type=Path, help="write the frames to this file (one per line)")
    parser.add_argument("--load", type=Path, help="replay frames saved with --save")
    args = parser.parse_args()

    if args.load:
        frames = [json.loads(line) for line in args.load.read_text().splitlines()]
        if sum(frame.count("\n") + 1 for frame in frames) < args.messages:
            frames = extend(frames, args.messages)
        source = f"{args.load} (repeated with fresh seqs up to --messages)"
    elif args.source == "synth":
        frames = synthesise(args.messages)
        source = "synthesised (ML, Spread, Totals; 2,000 events x 12 bookmakers)"
    else:
        markets = tuple(name.strip() for name in args.markets.split(",") if name.strip())
        frames = record_from_service(args.messages, args.rate, args.seconds, markets)
        source = (
            f"recorded from oddstui serve at {args.rate} updates/s (every bookmaker, "
            f"{len(markets)} markets)"
        )
    if args.save:
        args.save.write_text("\n".join(json.dumps(frame) for frame in frames))
    total_bytes = sum(len(frame) for frame in frames)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    if args.gc == "relaxed":
        gc.set_threshold(50_000, 50, 100)
    elif args.gc == "off":
        gc.disable()
    runs = [ingest(frames) for _ in range(args.repeat)]  # each into a fresh book and client
    gc.enable()
    runs.sort(key=lambda run: run[2])
    applied, elapsed, cpu, book, client = runs[len(runs) // 2]  # the median by CPU time
    fastest, slowest = runs[0][2], runs[-1][2]
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    tracemalloc.start()
    traced_book = ingest(frames)[3]
    _, traced_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    counters = client.counters
    print(f"source:            {source}")
    print(
        f"decoders:          msgspec {msgspec.__version__} for odds messages, {JSON_DECODER} for "
        f"the rest; cyclic GC: {args.gc} {gc.get_threshold()}"
    )
    print(f"frames:            {len(frames):,} ({total_bytes / 2**20:.1f} MiB of text)")
    print(f"lines a message:   {lines_per_message(frames):.1f}")
    print(
        f"messages applied:  {applied:,} (duplicates {counters.duplicates}, "
        f"malformed {counters.malformed})"
    )
    print(f"events in book:    {len(book):,}")
    print(
        f"elapsed:           {elapsed:.3f} s wall, {cpu:.3f} s CPU (load {os.getloadavg()[0]:.1f})"
    )
    print(
        f"throughput:        {applied / cpu:,.0f} messages/s of CPU (target 50,000), the median "
        f"of {len(runs)} runs; {applied / elapsed:,.0f}/s wall"
    )
    print(
        f"range:             {applied / slowest:,.0f} to {applied / fastest:,.0f} messages/s of CPU"
    )
    print(f"per message:       {cpu / max(applied, 1) * 1e6:.1f} us of CPU")
    print(f"peak RSS:          {rss_after:.0f} MiB (before ingest {rss_before:.0f} MiB)")
    print(f"traced peak:       {traced_peak / 2**20:.1f} MiB allocated during ingest")
    emit(
        f"client ingest, parse + apply ({source})",
        msg_per_cpu_s=applied / cpu,
        us_per_msg=cpu / max(applied, 1) * 1e6,
        lines_per_msg=lines_per_message(frames),
    )
    del traced_book


if __name__ == "__main__":
    main()
