"""`oddstui relay` under load: one upstream feed fanned out to many clients, with and without NATS.

Starts `oddstui serve --updates-per-second N` with two keys that select every active bookmaker:
the relay's upstream key and a reference key. Then, per setup:
- relay: `oddstui relay` on the upstream key; `--clients` clients (one relay key each)
- NATS: a `nats-server` (JetStream), a publishing relay (`--nats`) on the upstream key and a
  consuming relay (`--from-nats`) that the clients connect to
A reference client reads the service's feed directly on the other key. For `--seconds` after a
warm-up it prints:
- odds messages per second: the upstream's (reference) and each client's (min and mean)
- messages missing at a client: seqs the reference saw inside the window that a client lacks
- added delay: a client's receipt time minus the reference's receipt time of the same seq (the
  system's one monotonic clock, taken as a frame is complete and before it is scanned), p50
  and p99 (target p99 < 50 ms)
- with NATS, the delay of a plain NATS subscriber on the stream's odds subjects in the same run,
  so the relays' own share of the added delay is plain
- CPU of each relay, of the service (and of nats-server), % of one core and per 1,000 upstream
  messages; and of the reader processes (the clients)
- how long each of those processes waited on a run queue for a core, and how often it was
  preempted, per second (Linux schedstat; psutil): whether a delay is work or a wait for a core

The reference and the clients are dealt over `--reader-processes` processes (1). One process
reading 51 sockets read each frame's copies one after another (the last ~10 ms after the first,
most of it a regex over each copy), which the figure counted as the relay's. Now each distinct
frame is scanned for its seqs once per process, and the readers cost ~0.1 ms a frame (2.5-2.8 %
of a core, from 6.8-7.1 %, A/B with one core busy). A second reader process did not lower the
delay with one core busy (p99 108 and 78 ms against 107 and 68 with one, A/B at load ~4.5) and
waited longer for a core: one is the default.

    python benchmarks/relay.py [--seconds 10] [--updates-per-second 2000] [--clients 50]
        [--setups relay,nats] [--compression] [--repeat 5] [--busy-core] [--profile DIR]
        [--reader-processes 1]

Each setup is measured `--repeat` times on the same processes (a one-line report per run), then
the median and range of the runs: one run is not a figure. `--busy-core` keeps one core busy
with a spinning process (the issue's "one core busy" condition); `--profile DIR` adds one run
per setup under py-spy (`pip install py-spy`) and prints where each relay's time goes.

Clients offer permessage-deflate with `--compression`, and the relays then accept it (`--deflate`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import re
import selectors
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
import psutil
from measure import emit
from websockets.asyncio.client import connect

from oddstui.relay.nats_server import NatsServer

UP_KEY, REF_KEY = "k-bench-upstream", "k-bench-reference"
SEQ = re.compile(rb'"seq":(\d+)')
ODDS = re.compile(r'"type":"(?:created|updated|deleted|no_markets)"')


def spawn(args: list[str], ready: str, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    """Start `python -m oddstui ARGS` and wait for its ready line; (process, base URL)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "oddstui", *args],
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **env},
    )
    assert process.stdout is not None
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ)
    deadline, line = time.monotonic() + 60, b""
    while time.monotonic() < deadline and not line.endswith(b"\n"):
        if selector.select(timeout=0.5):
            chunk = os.read(process.stdout.fileno(), 1)
            if not chunk:
                break
            line += chunk
    match = re.match(ready + r" (http://\S+/v3)$", line.decode().strip())
    if match is None:
        process.kill()
        raise SystemExit(f"no ready line from oddstui {args[0]}: {line!r}")
    return process, match.group(1)


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(15)
    except subprocess.TimeoutExpired:
        process.kill()


def accounts(folder: Path, keys: list[str]) -> Path:
    path = folder / f"accounts-{len(keys)}.toml"
    path.write_text(
        "".join(
            f'[[account]]\nkey = "{k}"\nfeed = true\nrequests_per_hour = 10000000\n\n' for k in keys
        )
    )
    return path


def select_everything(base: str) -> int:
    books = [b["name"] for b in httpx.get(f"{base}/bookmakers", timeout=30).json() if b["active"]]
    for key in (UP_KEY, REF_KEY):
        params = {"apiKey": key, "bookmakers": ",".join(books)}
        httpx.put(f"{base}/bookmakers/selected/select", params=params, timeout=30)
    return len(books)


class FrameScan:
    """The seqs in a frame, scanned once per distinct frame: the relay sends the same bytes to
    every client on one filter, so fifty clients need not scan fifty copies (a bytes regex over
    a 110 kB frame is ~0.1 ms, half a second of the readers' CPU per second at 650 frames a
    second). A frame is known by its length and its first and last 128 bytes: the first carry
    its first message's seq, unique in the stream."""

    def __init__(self) -> None:
        self._known: dict[tuple[int, bytes, bytes], list[int]] = {}

    def seqs(self, frame: bytes) -> list[int]:
        key = (len(frame), frame[:128], frame[-128:])
        found = self._known.get(key)
        if found is None:
            if len(self._known) > 4096:
                self._known.clear()
            found = self._known[key] = [int(seq) for seq in SEQ.findall(frame)]
        return found


class Reader:
    """One feed client: the arrival time of every odds seq inside the measuring window, taken
    as soon as its frame is complete, before anything else is done with it."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.arrivals: dict[int, float] = {}
        self.frames = 0  # WebSocket frames inside the window (one may carry several messages)

    async def run(self, compression: str | None, begin: float, end: float, scan: FrameScan) -> None:
        clock = time.monotonic
        async with connect(self.url, max_size=None, compression=compression, proxy=None) as ws:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(0.0, end - clock())):
                    while True:
                        frame = await ws.recv(decode=False)
                        now = clock()
                        if now >= begin:
                            self.frames += 1
                            arrivals = self.arrivals
                            for seq in scan.seqs(frame):
                                if seq not in arrivals:
                                    arrivals[seq] = now


def read_feeds(
    urls: list[str], compression: str | None, begin: float, end: float
) -> tuple[list[dict[int, float]], list[int], float]:
    """Run one reader per URL in this process until `end` (a reader process's job); their
    arrivals, frame counts, and this process's CPU seconds inside the window. time.monotonic
    is the system's one monotonic clock: times from several processes compare."""
    return asyncio.run(_read_feeds(urls, compression, begin, end))


async def _read_feeds(
    urls: list[str], compression: str | None, begin: float, end: float
) -> tuple[list[dict[int, float]], list[int], float]:
    readers = [Reader(url) for url in urls]
    scan = FrameScan()
    tasks = [asyncio.create_task(r.run(compression, begin, end, scan)) for r in readers]
    await asyncio.sleep(max(0.0, begin - time.monotonic()))
    cpu = time.process_time()
    await asyncio.gather(*tasks)
    cpu = time.process_time() - cpu
    return [r.arrivals for r in readers], [r.frames for r in readers], cpu


def warm(_: int) -> int:
    time.sleep(0.3)  # long enough that each warm-up call lands on a worker of its own
    return os.getpid()


class NatsReader:
    """A plain NATS subscriber on the stream's odds subjects: the delay NATS itself adds, so the
    consuming relay's own share is plain."""

    def __init__(self, url: str, prefix: str = "oddstui") -> None:
        self.url = url
        self.prefix = prefix
        self.arrivals: dict[int, float] = {}

    async def run(self, begin: float, end: float) -> None:
        import nats

        def arrived(message: Any) -> None:
            now = time.monotonic()
            if begin <= now < end:
                for seq in SEQ.findall(message.data):
                    self.arrivals.setdefault(int(seq), now)

        async def on_message(message: Any) -> None:
            arrived(message)

        nc = await nats.connect(self.url)
        try:
            await nc.subscribe(f"{self.prefix}.odds.>", cb=on_message)
            await asyncio.sleep(max(0.0, end - time.monotonic()))
        finally:
            await nc.close()


def delays(arrivals: dict[int, float], reference: dict[int, float]) -> list[float]:
    found = [at - reference[seq] for seq, at in arrivals.items() if seq in reference]
    return sorted(found)


def ws_url(base: str, key: str, markets: str) -> str:
    query = urlencode({"apiKey": key, "markets": markets})
    return base.replace("http://", "ws://", 1) + "/ws?" + query


async def measure(
    base: str,
    upstream: str,
    keys: list[str],
    processes: dict[str, psutil.Process],
    args: Any,
    nats_url: str | None = None,
) -> dict[str, Any]:
    compression = "deflate" if args.compression else None
    urls = [ws_url(upstream, REF_KEY, args.markets)]  # the reference: the service's own feed
    urls += [ws_url(base, key, args.markets) for key in keys]
    begin = time.monotonic() + args.warmup
    end = begin + args.seconds
    loop = asyncio.get_running_loop()
    # The readers, dealt round-robin over the reader processes (the reference in the first).
    shares = [urls[n :: args.reader_processes] for n in range(args.reader_processes)]
    assert all(shares), "more reader processes than readers"
    reading = [
        loop.run_in_executor(args.pool, read_feeds, share, compression, begin, end)
        for share in shares
    ]
    plain = NatsReader(nats_url) if nats_url is not None else None
    plain_task = asyncio.create_task(plain.run(begin, end)) if plain is not None else None
    await asyncio.sleep(max(0.0, begin - time.monotonic()))
    watched = {**{name: p.pid for name, p in processes.items()}, "readers": args.reader_pids}
    for process in processes.values():
        process.cpu_percent(None)
    waited = {name: queued(pids) for name, pids in watched.items()}
    preempted = {name: p.num_ctx_switches().involuntary for name, p in processes.items()}
    answers = await asyncio.gather(*reading)
    cpu = {name: process.cpu_percent(None) for name, process in processes.items()}
    waited = {name: (queued(pids) - waited[name]) / args.seconds for name, pids in watched.items()}
    preempted = {
        name: (process.num_ctx_switches().involuntary - preempted[name]) / args.seconds
        for name, process in processes.items()
    }
    if plain_task is not None:
        await plain_task
    arrivals: list[dict[int, float]] = [{} for _ in urls]
    frames = 0
    for n, (found, counted, _) in enumerate(answers):
        for m, seen in enumerate(found):
            arrivals[n + m * args.reader_processes] = seen
            frames += counted[m] if n + m * args.reader_processes else 0
    reference, clients = arrivals[0], arrivals[1:]
    # Seqs the reference saw comfortably inside the window: every client should have them.
    expected = [seq for seq, at in reference.items() if at < end - 0.5]
    missing, added = [], []
    for client in clients:
        missing.append(sum(seq not in client for seq in expected))
        for seq, at in client.items():
            ref = reference.get(seq)
            if ref is not None:
                added.append(at - ref)
    added.sort()
    plain_added = delays(plain.arrivals, reference) if plain is not None else []
    return {
        "plain_nats": plain_added,
        "upstream": len(reference) / args.seconds,
        "rates": [len(c) / args.seconds for c in clients],
        "frames": frames / args.seconds,
        "missing": missing,
        "p50": statistics.median(added) if added else float("nan"),
        "p99": added[int(len(added) * 0.99)] if added else float("nan"),
        "cpu": cpu,
        "waited": waited,
        "preempted": preempted,
        "clients_cpu": 100.0 * sum(answer[2] for answer in answers) / args.seconds,
        "load": os.getloadavg()[0],
    }


def report(name: str, result: dict[str, Any], clients: int) -> None:
    rates = result["rates"]
    print(f"  {name}: {clients} clients")
    print(f"    upstream (reference client): {result['upstream']:,.0f} odds messages/s")
    print(
        f"    delivered per client: min {min(rates):,.0f}, mean {statistics.mean(rates):,.0f} "
        f"msg/s; missing at a client: max {max(result['missing'])}; "
        f"frames to all clients {result['frames']:,.0f}/s"
    )
    print(
        f"    added delay: p50 {result['p50'] * 1000:.1f} ms, p99 {result['p99'] * 1000:.1f} ms "
        "(target p99 < 50 ms)"
    )
    plain = result.get("plain_nats") or []
    if plain:
        p50, p99 = statistics.median(plain) * 1000, plain[int(len(plain) * 0.99)] * 1000
        print(
            f"    a plain NATS subscriber on the stream, same run: p50 {p50:.1f} ms, "
            f"p99 {p99:.1f} ms (the relays' own share is the difference)"
        )
    cpu = ", ".join(f"{n} {c:.0f} %" for n, c in result["cpu"].items())
    print(
        f"    CPU (% of one core): {cpu}; benchmark clients {result['clients_cpu']:.0f} %; "
        f"load average {result['load']:.1f}"
    )
    per = ", ".join(f"{n} {c:.1f} ms" for n, c in cpu_per_thousand(result).items())
    print(f"    CPU per 1,000 upstream messages (steadier than % under load): {per}")
    waits = ", ".join(f"{n} {w * 1000:.0f} ms" for n, w in result["waited"].items())
    print(f"    waited for a core, per second: {waits}")
    cut = ", ".join(f"{n} {c:.0f}" for n, c in result["preempted"].items())
    print(f"    preempted (involuntary context switches) per second: {cut}")


def queued(pids: int | list[int]) -> float:
    """Seconds the processes' threads have waited on a run queue for a core (Linux schedstat):
    how long work that was ready did not run."""
    total = 0
    for pid in pids if isinstance(pids, list) else [pids]:
        for task in Path(f"/proc/{pid}/task").glob("*/schedstat"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                total += int(task.read_text().split()[1])
    return total / 1e9


def cpu_per_thousand(result: dict[str, Any]) -> dict[str, float]:
    """Each process's CPU milliseconds per 1,000 odds messages of the upstream."""
    rate = max(result["upstream"], 1.0)
    return {name: cpu * 10.0 * 1000.0 / rate for name, cpu in result["cpu"].items()}


async def repeated(
    name: str,
    base: str,
    upstream: str,
    keys: list[str],
    processes: dict[str, psutil.Process],
    args: Any,
    nats_url: str | None = None,
) -> None:
    """`--repeat` measurements on the same processes, then their median and range; with
    `--profile`, one more run under py-spy, not counted (sampling costs the relay a little)."""
    results = []
    for run in range(1, args.repeat + 1):
        result = await measure(base, upstream, keys, processes, args, nats_url)
        report(f"{name}, run {run} of {args.repeat}", result, args.clients)
        results.append(result)
    summarize(name + (", one core busy" if args.busy_core else ""), results)
    if args.profile:
        profilers = {
            who: start_profile(process.pid, args.warmup + args.seconds, Path(args.profile), who)
            for who, process in processes.items()
            if "relay" in who
        }
        await measure(base, upstream, keys, processes, args, nats_url)
        for who, (profiler, out) in profilers.items():
            profiler.wait(timeout=60)
            print(f"  profile of the {who} during one more run ({out}):")
            for share, frame in top_frames(out):
                print(f"    {share:5.1f} %  {frame}")


def summarize(name: str, results: list[dict[str, Any]]) -> None:
    def spread(values: list[float], scale: float = 1.0) -> str:
        scaled = [v * scale for v in values]
        return f"{statistics.median(scaled):.1f} (range {min(scaled):.1f}-{max(scaled):.1f})"

    print(f"  {name}: median of {len(results)} runs (range)")
    emit(
        f"{name}, added delay",
        p99_ms=[r["p99"] * 1000 for r in results],
        p50_ms=[r["p50"] * 1000 for r in results],
    )
    print(
        f"    added delay p99 {spread([r['p99'] for r in results], 1000)} ms, "
        f"p50 {spread([r['p50'] for r in results], 1000)} ms"
    )
    plains = [r["plain_nats"] for r in results if r.get("plain_nats")]
    if plains:
        p99s = [plain[int(len(plain) * 0.99)] for plain in plains]
        print(f"    plain NATS subscriber p99 {spread(p99s, 1000)} ms")
    for who in results[0]["cpu"]:
        print(
            f"    CPU {who} {spread([r['cpu'][who] for r in results])} % of one core, "
            f"{spread([cpu_per_thousand(r)[who] for r in results])} ms per 1,000 upstream messages"
        )
    for who in results[0]["waited"]:
        waits = [r["waited"][who] for r in results]
        print(f"    {who} waited for a core {spread(waits, 1000)} ms per second")
    print(
        f"    benchmark clients CPU {spread([r['clients_cpu'] for r in results])} %; "
        f"frames to all clients {spread([r['frames'] for r in results])}/s; "
        f"load average {spread([r['load'] for r in results])}"
    )


def start_profile(pid: int, seconds: float, folder: Path, who: str) -> tuple[Any, Path]:
    """py-spy sampling `pid` for `seconds` (without pausing it), collapsed stacks into a file."""
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / f"{who.replace(' ', '-')}.txt"
    command = [
        "py-spy",
        "record",
        "--pid",
        str(pid),
        "--duration",
        str(int(seconds) + 1),
        "--rate",
        "200",
        "--nonblocking",
        "--format",
        "raw",
        "--output",
        str(out),
    ]
    profiler = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return profiler, out


def top_frames(collapsed: Path, count: int = 12) -> list[tuple[float, str]]:
    """The functions most samples were in (their own time), as % of all samples."""
    own: dict[str, int] = {}
    total = 0
    for line in collapsed.read_text().splitlines():
        stack, _, samples = line.rpartition(" ")
        if not samples.isdigit():
            continue
        leaf = stack.rsplit(";", 1)[-1]
        own[leaf] = own.get(leaf, 0) + int(samples)
        total += int(samples)
    ranked = sorted(own.items(), key=lambda item: -item[1])[:count]
    return [(100.0 * n / max(total, 1), frame) for frame, n in ranked]


async def main(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="oddstui-relay-bench-"))
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if args.busy_core else None
    spawning = multiprocessing.get_context("spawn")
    args.pool = ProcessPoolExecutor(args.reader_processes, mp_context=spawning)
    try:
        # Start every reader process now, not in the first run's warm-up.
        args.reader_pids = list(args.pool.map(warm, range(args.reader_processes)))
        await bench(args, folder)
    finally:
        args.pool.shutdown(cancel_futures=True)
        if busy is not None:
            busy.kill()
            busy.wait()


async def bench(args: argparse.Namespace, folder: Path) -> None:
    keys = [f"k-bench-client-{n}" for n in range(args.clients + 1)]  # the last: a relay's own
    env = {"ODDSTUI_HOME": str(folder), "ODDSTUI_API_KEY": UP_KEY}
    relay_flags = ["--port", "0", "--accounts", str(accounts(folder, keys))]
    if args.compression:
        relay_flags.append("--deflate")
    service, upstream = spawn(
        [
            "serve",
            "--port",
            "0",
            "--accounts",
            str(accounts(folder, [UP_KEY, REF_KEY])),
            "--updates-per-second",
            str(args.updates_per_second),
        ],
        "serving",
        {},
    )
    served = psutil.Process(service.pid)
    try:
        books = select_everything(upstream)
        print(
            f"oddstui serve --updates-per-second {args.updates_per_second:g}, {books} bookmakers "
            f"selected; markets={args.markets}; compression "
            f"{'permessage-deflate' if args.compression else 'off'}; {args.seconds:g} s"
        )
        if "relay" in args.setups:
            relay, base = spawn(["relay", *relay_flags, "--upstream", upstream], "relaying", env)
            try:
                processes = {"relay": psutil.Process(relay.pid), "service": served}
                await repeated("relay", base, upstream, keys[:-1], processes, args)
            finally:
                stop(relay)
        if "nats" in args.setups:
            nats = NatsServer(folder / "nats")
            url = nats.start()
            try:
                a, a_base = spawn(
                    ["relay", *relay_flags, "--upstream", upstream, "--nats", url], "relaying", env
                )
                b_env = {**env, "ODDSTUI_API_KEY": keys[-1]}
                b, b_base = spawn(
                    ["relay", *relay_flags, "--upstream", a_base, "--from-nats", url],
                    "relaying",
                    b_env,
                )
                try:
                    assert nats.process is not None
                    processes = {
                        "service": served,
                        "publishing relay": psutil.Process(a.pid),
                        "nats-server": psutil.Process(nats.process.pid),
                        "consuming relay": psutil.Process(b.pid),
                    }
                    await repeated(
                        "relay -> NATS JetStream -> relay",
                        b_base,
                        upstream,
                        keys[:-1],
                        processes,
                        args,
                        url,
                    )
                finally:
                    stop(b)
                    stop(a)
            finally:
                nats.stop()
    finally:
        stop(service)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--updates-per-second", type=float, default=2000.0)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--markets", default="ML,Spread,Totals")
    parser.add_argument("--setups", default="relay,nats", help="relay, nats or both")
    parser.add_argument(
        "--compression", action="store_true", help="permessage-deflate (relays get --deflate)"
    )
    parser.add_argument("--repeat", type=int, default=5, help="runs per setup (default 5)")
    parser.add_argument(
        "--busy-core", action="store_true", help="keep one core busy with a spinning process"
    )
    parser.add_argument(
        "--reader-processes",
        type=int,
        default=1,
        help="processes the reference and the clients are dealt over (default 1)",
    )
    parser.add_argument(
        "--profile", metavar="DIR", help="one more run per setup with py-spy on each relay"
    )
    asyncio.run(main(parser.parse_args()))
