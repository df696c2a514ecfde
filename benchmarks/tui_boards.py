"""The arbitrage board under load: 500 live arbitrages, 50 price changes a second, in a pty.

    python benchmarks/tui_boards.py [--seconds 20] [--arbs 500] [--rate 50] [--top-profit 9]

The real app (`OddsApp`, the real `ArbitrageScreen`, the real `OddsBook` and its client-side
detection) runs in a pseudo-terminal of 120x40. The built-in service cannot be told to hold
exactly 500 arbitrages, so the feed is synthetic: a thread applies `--rate` odds messages a
second to the book, each moving one leg of one of `--arbs` two-way Totals markets whose best
prices stay an arbitrage of 3 % to `--top-profit` % (stamped with their receive time, as the real
feed does). The default 9 keeps every edge under the desk's suspect line (10 %, the world's bound):
500 arbitrages shown (with `stale_live` at 1,800 s, so legs re-quoted every 20 s on average
count as fresh). `--top-profit 15` is the spread before that line moved from 15 % to 10 %: a
third of the rows then cross the line as their legs move, and come and go at the board's top.
REST answers (500 live events with clocks, the bookmaker selection, an empty /arbitrage-bets)
come from an httpx MockTransport. After a warm-up it measures for `--seconds`:
- message-to-paint latency: for each repaint after a change set, paint time minus the receive
  stamp of the newest message it showed, p50 and p95
- terminal bytes per second read from the pty
- CPU of the app process (all threads, the feed thread included), in % of one core
Targets (issue 12): p95 <= 100 ms, <= 25 KiB/s; CPU <= 30 % (TUI part 1).
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import random
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psutil
from measure import drain_pty, emit, percentile

from oddstui.book.oddsbook import OddsBook
from oddstui.tui.desk.feed import BookFeed

COLUMNS, ROWS = 120, 40
WARM_UP = 6.0
BOOKS = ("Bet365", "Pinnacle")
#: The benchmark's stale_live setting: an in-play leg is suspect past a sixth of it (300 s).
STALE_LIVE = 1800.0
#: Write the raw terminal output here (to see what is repainted), when set.
DUMP = os.environ.get("ODDSTUI_BENCH_DUMP", "")


# --------------------------------------------------------------------------- the child: the app


class SyntheticFeed(BookFeed):
    """A `Feed` whose thread moves one leg of one arbitrage `rate` times a second."""

    monotonic = staticmethod(time.monotonic)

    def __init__(self, arbs: int, rate: float, top_profit: float) -> None:
        self.book = OddsBook()
        self.lock = threading.RLock()
        super().__init__(self.book, self.lock)
        self.arbs, self.rate = arbs, rate
        # Both best prices at `high` make a profit of high / 2 - 1.
        self.high = 2.0 * (1 + top_profit / 100)
        self.newest = 0.0
        self.applied = 0
        self._stop = threading.Event()
        self._seq = 0
        self._rng = random.Random(7)
        for event in range(arbs):
            for book in BOOKS:
                self._apply(event, book, *self._prices(book))

    def _prices(self, book: str) -> tuple[float, float]:
        # Over at the first book and under at the second stay the best prices: always an arb.
        high = round(self._rng.uniform(2.06, self.high), 2)
        low = round(self._rng.uniform(1.70, 1.90), 2)
        return (high, low) if book == BOOKS[0] else (low, high)

    def _apply(self, event: int, book: str, over: float, under: float) -> None:
        from oddstui.api.messages import OddsMessage
        from oddstui.api.models import Line, MarketQuote

        self._seq += 1
        now = time.monotonic()
        line = Line(2.5, None, {"over": over, "under": under}, None)
        message = OddsMessage(
            "updated", self._seq, None, 1_000 + event, book, None,
            (MarketQuote("Totals", None, (line,)),), received=now,
        )  # fmt: skip
        with self.lock:
            self.book.apply(message)
            self.newest = now
            self.applied += 1

    def _run(self) -> None:
        interval = 1.0 / self.rate
        due = time.monotonic()
        while not self._stop.is_set():
            due += interval
            event = self._rng.randrange(self.arbs)
            book = self._rng.choice(BOOKS)
            self._apply(event, book, *self._prices(book))
            self._stop.wait(max(due - time.monotonic(), 0.0))

    def start(self) -> None:
        threading.Thread(target=self._run, daemon=True).start()

    def stop(self) -> None:
        self._stop.set()

    def reconnect(self) -> None: ...

    def track(self, event_ids: list[int]) -> None: ...

    def scores_refreshed(self) -> None: ...

    def keep_bookmakers(self, names: list[str]) -> None: ...

    def on_change(self, wake: Any) -> None:
        self.book.on_change = wake

    def health(self) -> Any:
        from oddstui.tui.desk.feed import FeedHealth

        return FeedHealth("live", self._seq, self.newest or None, "", None)


def rest_answers(arbs: int) -> Any:
    import httpx

    start = datetime.now(UTC) - timedelta(minutes=30)
    live = [
        {
            "id": 1_000 + event, "home": f"Home {event}", "away": f"Away {event}",
            "date": start.isoformat().replace("+00:00", "Z"), "status": "live",
            "sport": {"name": "Basketball", "slug": "basketball"},
            "league": {"name": "Bench League", "slug": "bench-league"},
            "scores": {"home": event % 90, "away": event % 70, "periods": {}},
            "clock": {"minute": 20, "playedSeconds": 1200, "period": 2, "running": True,
                      "statusDetail": "Q2", "injuryTime": 0},
            "bookmakerCount": 2,
        }
        for event in range(arbs)
    ]  # fmt: skip
    answers = {
        "/sports": [],
        "/events/live": live,
        "/bookmakers/selected": {"bookmakers": list(BOOKS), "count": 2},
        "/arbitrage-bets": [],
    }
    headers = {"x-ratelimit-limit": "100000", "x-ratelimit-remaining": "99000"}

    def answer(request: httpx.Request) -> httpx.Response:
        path = request.url.path.split("/v3", 1)[-1]
        return httpx.Response(200, json=answers.get(path, []), headers=headers)

    return httpx.MockTransport(answer)


def child(log_path: str, arbs: int, rate: float, top_profit: float) -> None:
    from oddstui import config
    from oddstui.api.rest import ApiClient
    from oddstui.tui.app import OddsApp
    from oddstui.tui.boards.arbitrage.arb_screen import ArbitrageScreen
    from oddstui.tui.desk.state import ChangeSet

    log = open(log_path, "a", buffering=1, encoding="utf-8")  # noqa: SIM115
    feed = SyntheticFeed(arbs, rate, top_profit)

    class MeasuredArbitrage(ArbitrageScreen):
        def patch(self, changes: ChangeSet) -> None:
            newest = feed.newest
            super().patch(changes)
            if changes.prices:
                self.call_after_refresh(
                    lambda: log.write(
                        f"paint {time.monotonic():.6f} {newest:.6f} {self.query_one('PatchTable').row_count}\n"  # noqa: E501
                    )
                )

    class BenchApp(OddsApp):
        MODES = {**OddsApp.MODES, "arbitrage": MeasuredArbitrage}

    api = ApiClient("http://bench.invalid/v3", "bench", transport=rest_answers(arbs))
    # 50 changes a second over 1,000 legs re-quote a leg every 20 s on average: past the desk's
    # in-play limit (stale_live / 6, 15 s by default) most rows would turn suspect and flap.
    # The benchmark measures 500 arbitrages shown, so its legs count as fresh for 5 minutes.
    settings = config.Settings(stale_live=STALE_LIVE)
    app = BenchApp(
        api,
        feed,
        settings=settings,
        start_mode="arbitrage",
        watchlist_path=Path(log_path).parent / "w.toml",
    )
    app.run()


# --------------------------------------------------------------------------- the parent


def main() -> None:
    if len(sys.argv) == 6 and sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--arbs", type=int, default=500)
    parser.add_argument("--rate", type=float, default=50.0)
    parser.add_argument("--top-profit", type=float, default=9.0, help="percent, 3 to 15")
    args = parser.parse_args()
    if not 3 < args.top_profit <= 15:
        parser.error(f"--top-profit must be above 3 and at most 15, not {args.top_profit:g}")

    folder = Path(tempfile.mkdtemp(prefix="oddstui-boards-bench-"))
    log = folder / "paint.log"
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(COLUMNS), "LINES": str(ROWS),
           "ODDSTUI_HOME": str(folder)}  # fmt: skip
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    process = subprocess.Popen(
        [sys.executable, __file__, "--child", str(log), str(args.arbs), str(args.rate),
         str(args.top_profit)],
        stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True,
    )  # fmt: skip
    os.close(slave)
    received: list[tuple[float, int]] = []
    threading.Thread(target=drain_pty, args=(master, received, DUMP), daemon=True).start()
    app = psutil.Process(process.pid)
    try:
        time.sleep(WARM_UP)
        cpu_before, start = sum(app.cpu_times()[:2]), time.monotonic()
        time.sleep(args.seconds)
        cpu, end = sum(app.cpu_times()[:2]) - cpu_before, time.monotonic()
    finally:
        try:
            os.write(master, b"q")
            process.wait(timeout=15)
        except (OSError, subprocess.TimeoutExpired):
            process.kill()
            process.wait()
    latencies, rows = [], []
    for line in log.read_text().splitlines():
        kind, *values = line.split()
        if kind == "paint" and start <= float(values[0]) < end:
            latencies.append((float(values[0]) - float(values[1])) * 1000)
            rows.append(int(values[2]))
    terminal = sum(size for stamp, size in received if start <= stamp < end)
    p50 = statistics.median(latencies) if latencies else float("nan")
    p95 = percentile(latencies, 0.95)
    kib = terminal / (end - start) / 1024
    cpu_percent = cpu / (end - start) * 100
    print(
        f"arbitrage board, pty {COLUMNS}x{ROWS}, {args.arbs} arbitrages, {args.rate:.0f} "
        f"changes/s, edges 3–{args.top_profit:g} %, {args.seconds:.0f} s measured after "
        f"{WARM_UP:.0f} s warm-up"
    )
    print(f"rows shown: {min(rows, default=0)}–{max(rows, default=0)}, repaints: {len(latencies)}")
    print(f"latency p50 {p50:.1f} ms, p95 {p95:.1f} ms")
    print(f"terminal {kib:.1f} KiB/s")
    print(f"CPU {cpu_percent:.1f} % of one core")
    edges = "" if args.top_profit == 9 else f", edges to {args.top_profit:g} %"
    emit(f"TUI arbitrage board, 500 arbitrages, 50 changes/s{edges}", p50_ms=p50, p95_ms=p95,
         kib_per_s=kib, cpu_pct=cpu_percent)  # fmt: skip
    checks = [("p95 <= 100 ms", p95 <= 100), ("<= 25 KiB/s", kib <= 25),
              ("CPU <= 30 %", cpu_percent <= 30)]  # fmt: skip
    print("targets: " + ", ".join(f"{name} {'met' if ok else 'MISSED'}" for name, ok in checks))


if __name__ == "__main__":
    main()
