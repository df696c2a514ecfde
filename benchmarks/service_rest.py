"""REST latency of the built-in service while its world produces 2,000 odds changes a second.

Starts `oddstui serve --port 0 --updates-per-second 2000` itself, then measures, one request at
a time over a keep-alive connection:
- GET /odds for one event with 30 bookmakers (target: p50 under 20 ms)
- GET /arbitrage-bets?limit=500 over the same 30 bookmakers (target: p99 under 100 ms)
- GET /bookmakers/selected, a trivial call, as a baseline: its p99 is the event loop's stalls
  (the world steps on the same loop)
and prints p50/p99 for both, plus the odds-change rate the world really produced (from the
X-Service-Seq sequence).

    python benchmarks/service_rest.py [--seconds 15] [--updates-per-second 2000]
"""

from __future__ import annotations

import argparse
import signal
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
from measure import emit, percentile
from serving import start_serve

KEY = "k-bench"


def start(updates_per_second: float, *flags: str) -> tuple[subprocess.Popen[bytes], str]:
    folder = Path(tempfile.mkdtemp(prefix="oddstui-bench-"))
    accounts = folder / "accounts.toml"
    accounts.write_text(
        f'[[account]]\nkey = "{KEY}"\nplan = "paid"\nfeed = true\nrequests_per_hour = 10000000\n'
    )
    return start_serve(
        "--accounts", str(accounts), "--updates-per-second", str(updates_per_second), *flags
    )


def measure(client: httpx.Client, path: str, params: dict, seconds: float) -> list[float]:
    timings = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        began = time.perf_counter()
        response = client.get(path, params=params)
        timings.append((time.perf_counter() - began) * 1000)
        if response.status_code != 200:
            raise SystemExit(f"{path}: {response.status_code} {response.text[:200]}")
    return timings


def report(name: str, timings: list[float], target: str) -> None:
    print(
        f"{name:<44} n={len(timings):<5} p50={statistics.median(timings):7.2f} ms  "
        f"p99={percentile(timings, 0.99):7.2f} ms   ({target})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15.0, help="seconds per measurement")
    parser.add_argument("--updates-per-second", type=float, default=2000.0)
    args = parser.parse_args()
    process, base = start(args.updates_per_second)
    try:
        with httpx.Client(base_url=base, timeout=30) as client:
            key = {"apiKey": KEY}
            books = [b["name"] for b in client.get("/bookmakers").json() if b["active"]][:30]
            events = client.get(
                "/events", params={**key, "sport": "football", "status": "pending"}
            ).json()
            # The soonest pending match that at least 20 books quote (events are by date).
            event = next(e for e in events if e["bookmakerCount"] >= 20)
            odds = {**key, "eventId": event["id"], "bookmakers": ",".join(books)}
            arbs = {**key, "bookmakers": ",".join(books), "limit": 500}
            time.sleep(2.0)  # let the world reach its rate
            first = client.get("/odds", params={**odds, "includeSeq": "true"})
            seq0, t0 = int(first.headers["x-service-seq"]), time.monotonic()
            client.get("/arbitrage-bets", params=arbs)  # the first scan of this book set
            odds_timings = measure(client, "/odds", odds, args.seconds)
            arb_timings = measure(client, "/arbitrage-bets", arbs, args.seconds)
            # The world steps on the same event loop: a trivial call shows its stalls.
            base_timings = measure(client, "/bookmakers/selected", key, args.seconds / 2)
            last = client.get("/odds", params={**odds, "includeSeq": "true"})
            rate = (int(last.headers["x-service-seq"]) - seq0) / (time.monotonic() - t0)
            size = len(client.get("/odds", params=odds).content)
            count = len(client.get("/arbitrage-bets", params=arbs).json())
        print(f"world: {rate:,.0f} odds changes/s (asked {args.updates_per_second:,.0f}/s)")
        report(
            f"GET /odds (1 event, 30 books, {size // 1024} KiB)", odds_timings, "target p50 < 20 ms"
        )
        print(f"  (event {event['id']} at {event['date']}, {event['bookmakerCount']} books)")
        report(f"GET /arbitrage-bets?limit=500 ({count} items)", arb_timings, "target p99 < 100 ms")
        report("GET /bookmakers/selected (baseline)", base_timings, "the event loop's stalls")
        for row, timings in (("GET /odds, 1 event x 30 books", odds_timings),
                             ("GET /arbitrage-bets?limit=500", arb_timings)):  # fmt: skip
            emit(row, p50_ms=statistics.median(timings), p99_ms=percentile(timings, 0.99))
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(20)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
