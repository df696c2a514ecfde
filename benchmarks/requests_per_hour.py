"""Requests an hour by path: the Live screen and each board (Arbitrage, Value, Dropping), on a
paid key with the feed and on a free key without it, against the real built-in service.

    python benchmarks/requests_per_hour.py [--paid-seconds 120] [--free-hour 120]
                                           [--screens live,arbitrage,value,dropping]
                                           [--plans paid,free]

The real desk (`build_app`) runs headless (textual's `run_test` pilot) on one screen, and its
HTTP client's own hooks count every request it sends, by path. How an hour is had:
- paid (5,000 an hour, the feed): a sampled window in real time. The start-up (until the
  catalog's one-time loads are done, at least `STARTUP` seconds) is counted once; the requests
  of the next `--paid-seconds` are multiplied by 3600 / that window. The row is start-up +
  steady rate, an extrapolation.
- free (100 an hour, no feed): an accelerated hour. The service's window is `--free-hour`
  seconds (`hour_seconds` in its accounts file) and its world runs 3600 / that times faster;
  the desk learns the window from the answers and paces by it. Every request of the window
  that the desk's first request opened is counted as sent: no extrapolation. Only the desk's
  one-second tick does not scale, which can only lower the count.
Figures depend on the world (kick-offs ask for early refreshes): seed 7, a fresh service per plan.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import sys
import tempfile
import time
from pathlib import Path

import httpx
from measure import emit
from serving import start_serve, stop_serve

STARTUP, STARTUP_LIMIT = 10.0, 60.0
PAID_KEY, FREE_KEY = "bench-paid", "bench-free"
SCREENS = ("live", "arbitrage", "value", "dropping")


class Counter:
    """Requests as the desk's client sends them: (monotonic time, path, keyed)."""

    def __init__(self) -> None:
        self.sent: list[tuple[float, str, bool]] = []
        self.refused = 0

    async def request(self, request: httpx.Request) -> None:
        path = request.url.path.split("/v3", 1)[-1] or "/"
        keyed = "apiKey" in request.url.params
        self.sent.append((time.monotonic(), _shape(path), keyed))

    async def response(self, response: httpx.Response) -> None:
        if response.status_code == 429:
            self.refused += 1


def _shape(path: str) -> str:
    """`/events/123` and `/participants/9/logo` counted as one path each."""
    parts = ["{id}" if part.isdigit() else part for part in path.split("/")]
    return "/".join(parts)


async def run_desk(base_url: str, key: str, screen: str, seconds: float) -> tuple[Counter, float]:
    """The desk on `screen` for `seconds` after its start-up; the counter and when the start-up
    (the catalog's one-time loads, at least `STARTUP` s) ended."""
    from oddstui import config
    from oddstui.tui.launch import build_app

    app = build_app(base_url, key, config.Settings(), start_mode=screen)
    counter = Counter()
    app.hub.api._http.event_hooks["request"].append(counter.request)
    app.hub.api._http.event_hooks["response"].append(counter.response)
    started = time.monotonic()
    board = app.hub.board
    async with app.run_test(size=(160, 45)) as pilot:
        while time.monotonic() - started < STARTUP_LIMIT:
            loaded = board.sports and all(sport in board.leagues for sport in board.sports)
            refused = app.hub.feed_refused_for_plan()
            if time.monotonic() - started >= STARTUP and (loaded or refused):
                break
            await pilot.pause(0.2)
        steady = time.monotonic()
        while time.monotonic() < steady + seconds:
            await pilot.pause(0.5)
    return counter, steady


def paid_row(counter: Counter, steady: float, window: float) -> dict[str, float]:
    """Start-up requests once, plus the steady window's scaled to an hour (extrapolated)."""
    row: dict[str, float] = collections.Counter()
    for at, path, _keyed in counter.sent:
        row[path] += 1 if at < steady else 3600.0 / window
    return row


def free_row(counter: Counter, hour: float) -> dict[str, float]:
    """Every request in the window the desk's first keyed request opened (one whole "hour")."""
    keyed = [at for at, _path, is_keyed in counter.sent if is_keyed]
    opened = keyed[0] if keyed else 0.0
    row: dict[str, float] = collections.Counter()
    for at, path, _keyed in counter.sent:
        if at < opened + hour:
            row[path] += 1
    return row


def accounts_file(text: str) -> str:
    folder = Path(tempfile.mkdtemp(prefix="oddstui-rph-"))
    path = folder / "accounts.toml"
    path.write_text(text)
    return str(path)


def measure_plan(plan: str, screens: list[str], args: argparse.Namespace) -> dict[str, dict]:
    if plan == "paid":
        accounts = accounts_file(f'[[account]]\nkey = "{PAID_KEY}"\nplan = "paid"\nfeed = true\n')
        flags = ("--seed", "7", "--accounts", accounts)
        key, seconds = PAID_KEY, args.paid_seconds
    else:
        hour = args.free_hour
        accounts = accounts_file(
            f'[[account]]\nkey = "{FREE_KEY}"\nplan = "free"\nhour_seconds = {hour}\n'
        )
        speed = 3600 / hour
        flags = ("--seed", "7", "--speed", f"{speed:g}", "--accounts", accounts)
        key, seconds = FREE_KEY, float(hour)
    rows: dict[str, dict] = {}
    for screen in screens:
        process, base_url = start_serve(*flags)
        try:
            counter, steady = asyncio.run(run_desk(base_url, key, screen, seconds))
        finally:
            stop_serve(process)
        if plan == "paid":
            row = paid_row(counter, steady, args.paid_seconds)
        else:
            row = free_row(counter, args.free_hour)
        rows[screen] = {"paths": row, "refused": counter.refused}
        print(f"  {plan:4} {screen:9} {sum(row.values()):7.0f} an hour", file=sys.stderr)
    return rows


def print_table(results: dict[str, dict[str, dict]]) -> None:
    paths = sorted({p for plan in results.values() for r in plan.values() for p in r["paths"]})
    head = f"{'plan':5} {'screen':10} {'total':>6} {'429':>4}  " + "  ".join(paths)
    print(head)
    for plan, rows in results.items():
        for screen, row in rows.items():
            cells = "  ".join(f"{row['paths'].get(p, 0):>{len(p)}.0f}" for p in paths)
            total = sum(row["paths"].values())
            print(f"{plan:5} {screen:10} {total:6.0f} {row['refused']:4}  {cells}")
            emit(f"requests an hour, {plan} key, {screen} screen", per_hour=total)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paid-seconds", type=float, default=120.0)
    parser.add_argument("--free-hour", type=int, default=120)
    parser.add_argument("--screens", default=",".join(SCREENS))
    parser.add_argument("--plans", default="paid,free")
    args = parser.parse_args()
    screens = [s for s in args.screens.split(",") if s]
    unknown = [s for s in screens if s not in SCREENS]
    if unknown or args.paid_seconds <= 0 or not 10 <= args.free_hour <= 3600:
        parser.error("screens are live, arbitrage, value, dropping; --free-hour 10..3600")
    os.environ.setdefault("ODDSTUI_HOME", tempfile.mkdtemp(prefix="oddstui-rph-home-"))
    results = {plan: measure_plan(plan, screens, args) for plan in args.plans.split(",") if plan}
    print(
        f"requests an hour by path (paid: start-up once + {args.paid_seconds:.0f} s sampled, "
        f"extrapolated; free: one accelerated hour of {args.free_hour} s, counted)"
    )
    print_table(results)


if __name__ == "__main__":
    main()
