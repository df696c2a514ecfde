"""Grading speed: POST /settlements/grade on the built-in service, 50 selections a request.

Starts `oddstui serve --port 0` itself, takes every line of every market Bet365 closed at on
football, tennis and basketball events settled in the last day, then grades them 50 at a time,
one request after another over a keep-alive connection, `--rounds` times over, and prints the
request latency (p50/p99) and the selections graded a second. The machine is shared: the load
average is printed with the figures; quote it with them.

    python benchmarks/grading.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

import httpx
from measure import emit, percentile
from serving import start_serve, stop_serve

KEY = "k-bench-grading"
SPORTS = ("football", "tennis", "basketball")
BATCH = 50


def selections(http: httpx.Client) -> list[dict]:
    now = time.time()
    start = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now - 86400))
    found = []
    for sport in SPORTS:
        params = {"apiKey": KEY, "sport": sport, "status": "settled", "from": start}
        for event in http.get("/events", params=params).json()[:20]:
            record = http.get(
                "/historical/odds",
                params={"apiKey": KEY, "eventId": event["id"], "bookmakers": "Bet365"},
            ).json()
            for market in record.get("bookmakers", {}).get("Bet365", []):
                for line in market["odds"]:
                    for side in ("home", "draw", "away", "over", "under", "yes", "no"):
                        if side in line:
                            pick = {"eventId": event["id"], "market": market["name"], "side": side}
                            if "hdp" in line:
                                pick["hdp"] = line["hdp"]
                            if "label" in line:
                                pick["label"] = line["label"]
                            found.append(pick)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        accounts = Path(folder) / "accounts.toml"
        accounts.write_text(f'[[account]]\nkey = "{KEY}"\nrequests_per_hour = 1000000\n')
        process, base = start_serve("--accounts", str(accounts), "--seed", "3")
        try:
            with httpx.Client(base_url=base, timeout=60) as http:
                picks = selections(http)
                latencies: list[float] = []
                began = time.perf_counter()
                for _ in range(args.rounds):
                    for at in range(0, len(picks), BATCH):
                        body = {"selections": picks[at : at + BATCH]}
                        sent = time.perf_counter()
                        answer = http.post("/settlements/grade", params={"apiKey": KEY}, json=body)
                        latencies.append(time.perf_counter() - sent)
                        answer.raise_for_status()
                elapsed = time.perf_counter() - began
        finally:
            stop_serve(process)
    graded = len(picks) * args.rounds
    print(f"selections: {len(picks)} ({', '.join(SPORTS)}), rounds: {args.rounds}")
    print(
        f"request of {BATCH}: p50 {statistics.median(latencies) * 1000:.1f} ms, "
        f"p99 {percentile(latencies, 0.99) * 1000:.1f} ms"
    )
    print(f"graded: {graded / elapsed:,.0f} selections/s over {elapsed:.1f} s")
    emit(
        f"POST /settlements/grade, {BATCH} selections a request",
        p50_ms=statistics.median(latencies) * 1000,
        p99_ms=percentile(latencies, 0.99) * 1000,
        selections_per_s=graded / elapsed,
    )
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
