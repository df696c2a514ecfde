"""Backtest speed: messages a second `oddstui backtest` runs over a recording with 20 markets.

Records the built-in service (`oddstui serve` at a high update rate, every active bookmaker
selected, tapped by `oddstui record` with the desk's 20 markets) for `--seconds`, or takes
`--recording PATH`, then runs the backtest's engine over the records `--repeat` times (records
read into memory first, so the figure is the engine's: book, arbitrage scan, value maths, alert
rules) and prints the median.
For scale it also prints, over the same records, the desk's decoder alone (parse only), and
the whole command, `oddstui backtest PATH --json` run in a fresh process with the same rules,
with one worker and with the command's default (one a core, the events shared out among them):
messages over the seconds its report says the backtest took (reading the segments, the engine,
the shares' reports merged), and over the process's wall time (with Python's start and the
JSON report written).

    python benchmarks/backtest.py [--seconds 60] [--updates-per-second 2000] [--repeat 3]
                                  [--recording PATH] [--keep DIR]

Target: 20,000 messages/s or more. The machine is shared: the load average is printed with
the figures; quote it with them.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from measure import emit  # noqa: E402
from serving import start_serve, stop_serve  # noqa: E402

from oddstui.api.messages import iter_frame  # noqa: E402
from oddstui.backtest.engine import collector_paused, run_backtest  # noqa: E402
from oddstui.backtest.parallel import default_workers  # noqa: E402
from oddstui.book.alert_rules import ArbitrageRule, PriceRule  # noqa: E402
from oddstui.book.alert_watch import AlertRules  # noqa: E402
from oddstui.recording import FeedMessage, Snapshot, open_recording  # noqa: E402


def record(folder: Path, seconds: float, rate: float) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "ODDSTUI_HOME": tempfile.mkdtemp(),
        "ODDSTUI_API_KEY": "demo",
    }
    serve, base = start_serve("--speed", "60", "--updates-per-second", str(rate), env=env)
    try:
        select_every_bookmaker(base)
        subprocess.run(
            [sys.executable, "-m", "oddstui", "record", "--out", str(folder)]
            + ["--base-url", base, "--duration", str(seconds)],
            check=True,
            env=env,
            stdout=subprocess.DEVNULL,
        )
    finally:
        stop_serve(serve)


def select_every_bookmaker(base: str) -> None:
    """As benchmarks/feed_ingest.py does: the world's whole update rate then reaches the feed."""
    import httpx

    with httpx.Client(base_url=base + "/") as http:
        names = [b["name"] for b in http.get("bookmakers").json() if b.get("active")]
        params = {"apiKey": "demo", "bookmakers": ",".join(names)}
        http.put("bookmakers/selected/select", params=params).raise_for_status()


def run_oddstui(*args: str) -> tuple[dict, float, float]:
    """`python -m oddstui ARGS` in a fresh process: its JSON answer, its wall seconds, and the
    CPU seconds of the command and its workers (Python's start included)."""
    started = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-m", "oddstui", *args],
        check=True,
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,  # `python -m` puts the working folder first on the path
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return orjson.loads(done.stdout), wall, cpu


def run_command(folder: Path, workers: int, rules: Path) -> tuple[float, float, float]:
    """`oddstui backtest PATH --json --workers N` in a fresh process: the seconds its report
    says the backtest took, the process's wall time, and the CPU seconds of the command and
    its workers."""
    answer, wall, cpu = run_oddstui(
        "backtest", str(folder), "--json", "--workers", str(workers), "--alerts", str(rules)
    )
    return answer["summary"]["seconds"], wall, cpu


def first_events(records: list) -> list[int]:
    """The first ten events the recording names: the alert rules go on them."""
    events: dict[int, None] = {}
    for record in records:
        if isinstance(record, Snapshot):
            events.update(dict.fromkeys(raw["id"] for raw in record.odds))
        elif isinstance(record, FeedMessage) and "bookie" in record.message:
            events[int(record.message["id"])] = None
        if len(events) >= 10:
            break
    return list(events)[:10]


def rules_for(events: list[int]) -> AlertRules:
    """A price rule and an arbitrage rule on each event, so the alert path runs too."""
    rules = AlertRules()
    for event_id in events:
        rules.add_price(PriceRule(event_id, "ML", "home", 2.5))
        rules.set_arbitrage(ArbitrageRule(event_id, 0.5))
    return rules


def rules_file(events: list[int]) -> Path:
    """`rules_for` as an alerts file, for the command."""
    path = Path(tempfile.mkdtemp()) / "alerts.toml"
    path.write_text(
        "".join(
            f'[[price]]\nevent = {e}\nmarket = "ML"\nside = "home"\nthreshold = 2.5\n'
            f"[[arbitrage]]\nevent = {e}\nmin_profit = 0.5\n"
            for e in events
        )
    )
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--updates-per-second", type=float, default=2000.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--recording", type=Path, help="backtest this recording instead")
    parser.add_argument("--keep", type=Path, help="record into this folder (and keep it)")
    args = parser.parse_args()
    folder = args.recording
    if folder is None:
        folder = args.keep or Path(tempfile.mkdtemp()) / "rec"
        print(f"recording {args.seconds:g} s of oddstui serve into {folder} ...")
        record(folder, args.seconds, args.updates_per_second)
    recording = open_recording(folder)
    started = time.perf_counter()
    with collector_paused():  # as the command reads them
        records = list(recording.records())
    reading = time.perf_counter() - started
    messages = [r for r in records if isinstance(r, FeedMessage)]
    markets = recording.manifest.markets or []
    parsed = (orjson.loads(r.text) if r.text else r.message for r in messages)  # not kept
    lines = sum(len(m.get("odds") or ()) for p in parsed for m in p.get("markets") or ())
    print(
        f"recording:        {len(messages):,} messages, {len(records) - len(messages)} other "
        f"records; {len(markets)} markets, {len(recording.manifest.bookmakers)} bookmakers, "
        f"{lines / max(len(messages), 1):.1f} lines a message"
    )
    events = first_events(records)
    complete = recording.manifest.complete_markets
    runs = []
    for _ in range(args.repeat):  # fresh rules each run: a rule keeps its baseline
        report = run_backtest(records, rules_for(events), complete_markets=complete)
        runs.append(len(messages) / report.seconds)
    print(
        f"backtest engine:  {statistics.median(runs):,.0f} msg/s, median of {len(runs)} "
        f"(range {min(runs):,.0f}-{max(runs):,.0f}); {len(report.arbitrages):,} arbitrages, "
        f"{len(report.value_bets):,} value bets, {len(report.alerts)} alerts"
    )
    started = time.perf_counter()
    for r in messages:
        for _ in iter_frame(r.text or orjson.dumps(r.message), r.time):
            pass
    decoding = time.perf_counter() - started
    print(f"decoder alone:    {len(messages) / decoding:,.0f} msg/s (the desk's parse, no book)")
    print(f"reading alone:    {len(records) / reading:,.0f} records/s (zstandard, JSON lines)")
    rules_path = rules_file(events)
    for workers in sorted({1, default_workers()}):
        rates, walls, per_cpu = [], [], []
        for _ in range(args.repeat):
            seconds, wall, cpu = run_command(folder, workers, rules_path)
            rates.append(len(messages) / seconds)
            walls.append(len(messages) / wall)
            per_cpu.append(len(messages) / cpu)
        emit(f"oddstui backtest, whole command, {workers} worker(s)", msg_per_s=rates,
             msg_per_cpu_s=per_cpu)
        print(
            f"whole command:    {statistics.median(rates):,.0f} msg/s with {workers} worker"
            f"{'s' if workers > 1 else ''}, median of {len(rates)} (range {min(rates):,.0f}-"
            f"{max(rates):,.0f}; segments read, events shared out, reports merged); "
            f"{statistics.median(walls):,.0f} msg/s of wall time, with Python's start and the "
            f"JSON report; {statistics.median(per_cpu):,.0f} msg per CPU second of its "
            f"processes, so about {statistics.median(per_cpu) * workers:,.0f} msg/s with "
            f"{workers} core(s) to itself"
        )
    load = os.getloadavg()
    print(
        f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} cores "
        "(a shared machine: figures vary with it). Target: 20,000 msg/s."
    )


if __name__ == "__main__":
    main()
