"""The edges a trader is shown, over minutes of the built-in world: the service's lists and the
desk's default boards, their top 5 at every minute and the share above 5 %.

Starts `oddstui serve --port 0 --updates-per-second 1000` (a busy world, real time) and the real
desk (`OddsApp`, headless, on the same service: its feed, its book, its own arbitrage detection)
on the Arbitrage board. Every minute it reads:
- the service: GET /arbitrage-bets over its first ten bookmakers, GET /value-bets for each of
  the first ten;
- the desk: the Arbitrage board's rows as shown by default (suspect rows hidden), then the
  Value bets board's (its first bookmaker), and back.
It prints each look's top 5 and, at the end, per list: rows seen, the largest edge, the share at
5 % or more and above 10 %.

    python benchmarks/edges.py [--minutes 10] [--seed 1] [--updates-per-second 1000]

The bound it holds (docs/desk.md): nothing above 10 % in any list, at most a tenth of the rows
at 5 % or more.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import time
from typing import Any

import httpx
from service_rest import KEY, start

from oddstui.tui.boards.arbitrage.arb_screen import ArbitrageScreen
from oddstui.tui.boards.value.value_screen import ValueBetsScreen
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.launch import build_app

TOP = 5
BIG, IMPOSSIBLE = 5.0, 10.0


def service_look(client: httpx.Client, books: list[str]) -> tuple[list[float], list[float]]:
    arbs = client.get("/arbitrage-bets", params={"bookmakers": ",".join(books), "limit": 500})
    arbs.raise_for_status()
    values: list[float] = []
    for book in books:
        answer = client.get("/value-bets", params={"bookmaker": book})
        answer.raise_for_status()
        values += [item["expectedValue"] for item in answer.json()]
    return [arb["profitMargin"] for arb in arbs.json()], values


async def until(condition: Any, pilot: Any, timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        await pilot.pause(0.2)
    return False


def board_edges(app: Any) -> list[float]:
    screen = app.screen
    table = screen.query_one(PatchTable)
    if isinstance(screen, ArbitrageScreen):
        rows = [screen.arbs.rows[key] for key in table.row_keys if key in screen.arbs.rows]
        return [row.profit_pct for row in rows if row.vanished_at is None]
    if isinstance(screen, ValueBetsScreen):
        lines = {line.item.id: line for line in screen.lines()}
        return [lines[key].ev for key in table.row_keys if key in lines and lines[key].ev]
    return []


def line(name: str, edges: list[float]) -> str:
    top = ", ".join(f"{edge:.2f}" for edge in sorted(edges, reverse=True)[:TOP]) or "none"
    return f"  {name:<18} {len(edges):>4} rows; top {TOP}: {top}"


def summary(name: str, edges: list[float]) -> str:
    if not edges:
        return f"{name}: no rows"
    big = sum(edge >= BIG for edge in edges) / len(edges)
    over = sum(edge > IMPOSSIBLE for edge in edges)
    return (
        f"{name}: {len(edges)} rows over the looks; largest {max(edges):.2f} %; "
        f"{big:.1%} at {BIG:g} % or more; {over} above {IMPOSSIBLE:g} %"
    )


async def run(base: str, minutes: float) -> dict[str, list[float]]:
    seen: dict[str, list[float]] = {k: [] for k in ("service arbs", "service value",
                                                   "desk arbitrage", "desk value")}
    app = build_app(base, KEY, start_mode="arbitrage")
    async with app.run_test(size=(160, 40)) as pilot:
        await until(lambda: app.hub.status.state == "live", pilot)
        with httpx.Client(base_url=base, params={"apiKey": KEY}, timeout=30) as client:
            books = [b["name"] for b in client.get("/bookmakers").json()][:10]
            end = time.monotonic() + minutes * 60
            look = 0
            while True:
                began = time.monotonic()
                arbs, values = service_look(client, books)
                await until(lambda: app.screen.query_one(PatchTable).row_count > 0, pilot, 30)
                desk_arbs = board_edges(app)
                await pilot.press("5")
                await until(lambda: isinstance(app.screen, ValueBetsScreen), pilot, 10)
                await until(lambda: app.screen.query_one(PatchTable).row_count > 0, pilot, 30)
                desk_values = board_edges(app)
                await pilot.press("4")
                look += 1
                print(f"minute {look}:", flush=True)
                for name, edges in zip(seen, (arbs, values, desk_arbs, desk_values), strict=True):
                    seen[name] += edges
                    print(line(name, edges), flush=True)
                if time.monotonic() >= end:
                    break
                await pilot.pause(max(0.0, 60.0 - (time.monotonic() - began)))
    return seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--updates-per-second", type=float, default=1000.0)
    args = parser.parse_args()
    process, base = start(args.updates_per_second, "--seed", str(args.seed))
    try:
        seen = asyncio.run(run(base, args.minutes))
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=10)
    print(f"{args.minutes:g} min of the world at {args.updates_per_second:g} updates/s, "
          f"seed {args.seed}:")
    for name, edges in seen.items():
        print(summary(name, edges))


if __name__ == "__main__":
    main()
