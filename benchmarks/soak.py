"""Memory of the built-in service over a long run with a desk's feed client attached.

Starts `oddstui serve --port 0 --updates-per-second 1000` itself, attaches the desk's own feed
client (FeedClient on a FeedThread, the account's default bookmakers, an OddsBook) and prints,
once a minute, the service's resident memory, the client's message count and the world's event
count. Memory should flatten within ten minutes: every structure that grows with time in the
service has a bound (see SERVICE.md and oddstui/service/world/).

    python benchmarks/soak.py [--minutes 30] [--updates-per-second 1000] [--every 60]
"""

from __future__ import annotations

import argparse
import signal
import time

import psutil
from measure import emit
from service_rest import KEY, start

from oddstui.api.feed import FeedClient
from oddstui.api.feed_thread import FeedThread
from oddstui.api.rest import ApiClient
from oddstui.book.oddsbook import OddsBook

MIB = 1 << 20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--updates-per-second", type=float, default=1000.0)
    parser.add_argument("--every", type=float, default=60.0, help="seconds between samples")
    args = parser.parse_args()

    process, base = start(args.updates_per_second)
    service = psutil.Process(process.pid)
    api = ApiClient(base, KEY)
    feed = FeedThread(FeedClient(base, KEY, OddsBook(), api), cleanup=api.aclose)
    feed.start()
    samples: list[tuple[float, float]] = []
    began = time.monotonic()
    print(f"service at {args.updates_per_second:g} updates/s, a desk's feed client attached")
    print(f"{'minute':>6} {'RSS MiB':>8} {'messages':>10} {'feed':>8}")
    try:
        while True:
            elapsed = time.monotonic() - began
            rss = service.memory_info().rss / MIB
            samples.append((elapsed / 60, rss))
            status = feed.status()
            print(
                f"{elapsed / 60:6.1f} {rss:8.1f} {status.counters.messages:10d} "
                f"{status.state.name.lower():>8}",
                flush=True,
            )
            if elapsed >= args.minutes * 60:
                break
            time.sleep(min(args.every, args.minutes * 60 - elapsed))
    finally:
        feed.stop()
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=10)
    settled = [rss for minute, rss in samples if minute >= 10]
    if settled:
        print(
            f"after 10 min: RSS {min(settled):.0f}–{max(settled):.0f} MiB "
            f"(growth {settled[-1] - settled[0]:+.0f} MiB over {samples[-1][0] - 10:.0f} min)"
        )
    print(f"peak RSS {max(rss for _, rss in samples):.0f} MiB")
    emit(f"oddstui serve memory at {args.updates_per_second:g} updates/s, {args.minutes:g} min",
         peak_rss_mib=max(rss for _, rss in samples))  # fmt: skip


if __name__ == "__main__":
    main()
