"""Wire-model parsing: odds records and market lists per second on one core.

Parses the captured odds-record shape of WIRE.md (three markets, four lines, string prices) and
a REST-sized /odds/multi body (10 records x 12 bookmakers) with the SDK's own parse functions.

    python benchmarks/models_parse.py [--seconds 2]

Rates are per second of CPU time on one core (process time), not wall time.
"""

from __future__ import annotations

import argparse
import copy
import json
import time
from collections.abc import Callable
from typing import Any

from measure import emit

from oddstui.api.models import parse_markets, parse_odds_record

MARKETS: list[dict[str, Any]] = [
    {
        "name": "ML",
        "updatedAt": "2026-09-18T18:53:59.208Z",
        "odds": [{"home": "3.100", "draw": "3.800", "away": "2.150", "max": 500}],
    },
    {
        "name": "Spread",
        "updatedAt": "2026-09-18T17:25:43.122Z",
        "odds": [
            {"hdp": -1.5, "home": "5.900", "away": "1.130"},
            {"hdp": 0.25, "home": "1.975", "away": "1.875"},
        ],
    },
    {
        "name": "Totals",
        "updatedAt": "2026-09-18T17:25:43.122Z",
        "odds": [{"hdp": 2.5, "over": "1.85", "under": "2.10"}],
    },
]
BOOKS = [f"Book {i}" for i in range(12)]
RECORD: dict[str, Any] = {
    "id": 72221272,
    "home": "AFC Bournemouth",
    "away": "Liverpool FC",
    "homeId": 60,
    "awayId": 44,
    "date": "2026-09-20T13:00:00Z",
    "status": "pending",
    "sport": {"name": "Football", "slug": "football"},
    "league": {"name": "England - Premier League", "slug": "england-premier-league"},
    "scores": {"home": 0, "away": 0, "periods": {}},
    "urls": {book: "N/A" for book in BOOKS},
    "bookmakerIds": {book: "200549676" for book in BOOKS},
    "bookmakers": {book: copy.deepcopy(MARKETS) for book in BOOKS},
}


def rate(work: Callable[[], object], seconds: float) -> float:
    """Calls per second of this process's CPU time, so a busy machine does not skew it."""
    count = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        for _ in range(100):
            work()
        count += 100
    return count / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    multi_body = json.dumps([RECORD] * 10)
    markets = rate(lambda: parse_markets(MARKETS), args.seconds)
    records = rate(lambda: parse_odds_record(RECORD), args.seconds)
    multi = rate(lambda: [parse_odds_record(r) for r in json.loads(multi_body)], args.seconds)
    print(f"market lists (3 markets, 4 lines): {markets:12,.0f} /s")
    print(f"odds records (12 books x 3 markets): {records:10,.0f} /s")
    print(f"/odds/multi bodies (10 records, json.loads + parse): {multi:8,.0f} /s")
    emit("wire models: odds records parsed", per_s=records)


if __name__ == "__main__":
    main()
