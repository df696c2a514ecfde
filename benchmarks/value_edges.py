"""How big the built-in service's value and arbitrage edges are, and how long the big ones last.

Starts `oddstui serve --port 0 --updates-per-second 1000` itself (a busy world), then every few
seconds asks GET /value-bets for each of the 20 busiest bookmakers and GET /arbitrage-bets across
the first ten, for `--minutes` minutes, and prints:
- the expected values seen at each poll: median, 95th percentile, the share under 5 %
- the edges of 10 % or more: how many, how long each stayed listed, and how old its quote was
- arbitrage profit margins: median and 95th percentile
and first, how long the service took to print its ready line and what the first poll after it
found (value bets for how many of the 20 busiest bookmakers, arbitrages among the first ten).

    python benchmarks/value_edges.py [--minutes 10] [--every 5] [--seed 1]
"""

from __future__ import annotations

import argparse
import signal
import statistics
import time
from datetime import datetime

import httpx
from measure import percentile
from service_rest import KEY, start

BIG_EDGE = 10.0  # percent


def parse_ts(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def poll(client: httpx.Client, books: list[str]) -> tuple[list[dict], list[dict]]:
    values = []
    for book in books:
        response = client.get("/value-bets", params={"bookmaker": book})
        response.raise_for_status()
        values += response.json()
    arbs = client.get("/arbitrage-bets", params={"bookmakers": ",".join(books[:10]),
                                                  "limit": 500})
    arbs.raise_for_status()
    return values, arbs.json()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--every", type=float, default=5.0, help="seconds between polls")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--updates-per-second", type=float, default=1000.0)
    args = parser.parse_args()

    launched = time.monotonic()
    process, base = start(args.updates_per_second, "--seed", str(args.seed))
    ready = time.monotonic() - launched
    evs: list[float] = []
    profits: list[float] = []
    big_seen: dict[str, list[float]] = {}  # id -> [first seen, last seen, quote age at first]
    polls = 0
    try:
        with httpx.Client(base_url=base, params={"apiKey": KEY}, timeout=30) as client:
            books = [b["name"] for b in client.get("/bookmakers").json()][:20]
            end = time.monotonic() + args.minutes * 60
            while time.monotonic() < end:
                began = time.monotonic()
                values, arbs = poll(client, books)
                now = time.time()  # at --speed 1 the service's clock is the wall clock
                if not polls:
                    with_value = len({item["bookmaker"] for item in values})
                    print(f"ready after {ready:.2f} s; first poll: value bets for {with_value} of "
                          f"{len(books)} bookmakers, {len(arbs)} arbitrages among ten", flush=True)
                polls += 1
                for item in values:
                    evs.append(item["expectedValue"])
                    if item["expectedValue"] >= BIG_EDGE:
                        seen = big_seen.setdefault(
                            item["id"],
                            [began, began, now - parse_ts(item["bookmakerOdds"]["updatedAt"])],
                        )
                        seen[1] = began
                profits += [arb["profitMargin"] for arb in arbs]
                time.sleep(max(0.0, args.every - (time.monotonic() - began)))
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=10)

    under5 = sum(1 for ev in evs if ev < 5.0) / len(evs) if evs else float("nan")
    print(f"{polls} polls over {args.minutes:g} min, 20 bookmakers, world at "
          f"{args.updates_per_second:g} updates/s, seed {args.seed}")
    print(f"value bets: {len(evs) / max(polls, 1):.0f} listed a poll; EV median "
          f"{percentile(evs, 0.5):.2f} %, p95 {percentile(evs, 0.95):.2f} %, "
          f"max {max(evs, default=float('nan')):.1f} %; {under5:.1%} under 5 %")
    lasted = [last - first + args.every for first, last, _ in big_seen.values()]
    ages = [age for _, _, age in big_seen.values()]
    if big_seen:
        print(f"edges of {BIG_EDGE:g} % or more: {len(big_seen)} distinct; listed for median "
              f"{statistics.median(lasted):.0f} s (p95 {percentile(lasted, 0.95):.0f} s); "
              f"quote age when first seen median {statistics.median(ages):.0f} s")
    else:
        print(f"edges of {BIG_EDGE:g} % or more: none")
    print(f"arbitrage among 10: {len(profits) / max(polls, 1):.0f} listed a poll; profit median "
          f"{percentile(profits, 0.5):.2f} %, p95 {percentile(profits, 0.95):.2f} %")


if __name__ == "__main__":
    main()
