"""Bookmaker intelligence speed: messages a second `oddstui books` runs over a recording.

Records the built-in service (`oddstui serve` at a high update rate, every active bookmaker
selected, tapped by `oddstui record` with the desk's 20 markets) for `--seconds`, or takes
`--recording PATH`; then prints, over records read into memory first, the engine with the
backtest's feeder in this process (median of `--repeat`), and the whole command,
`oddstui books PATH --json` in a fresh process, with one worker and with its default (one a
core): messages over the seconds the run took (segments read, events shared out, engines
merged).

    python benchmarks/books.py [--seconds 60] [--updates-per-second 2000] [--repeat 3]
                               [--recording PATH] [--keep DIR]

Target: 20,000 messages/s or more. The machine is shared: the load average is printed with
the figures; quote it with them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from backtest import record, run_oddstui  # noqa: E402
from measure import emit  # noqa: E402

from oddstui.backtest.books import books_of, watch_share  # noqa: E402
from oddstui.backtest.engine import collector_paused  # noqa: E402
from oddstui.backtest.parallel import default_workers  # noqa: E402
from oddstui.backtest.partition import shares_of  # noqa: E402
from oddstui.intel.merge import merge  # noqa: E402
from oddstui.intel.report import report_of  # noqa: E402
from oddstui.recording import FeedMessage, open_recording  # noqa: E402


def run_command(folder: Path, workers: int) -> tuple[int, float, float]:
    """`oddstui books PATH --json --workers N` in a fresh process: messages, run seconds, and
    the CPU seconds of the command and its workers (Python's start included)."""
    answer, _wall, cpu = run_oddstui("books", str(folder), "--json", "--workers", str(workers))
    summary = answer["summary"]
    return summary["messages"], summary["runSeconds"], cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--updates-per-second", type=float, default=2000.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--recording", type=Path, help="run over this recording instead")
    parser.add_argument("--keep", type=Path, help="record into this folder (and keep it)")
    args = parser.parse_args()
    folder = args.recording
    if folder is None:
        folder = args.keep or Path(tempfile.mkdtemp()) / "rec"
        print(f"recording {args.seconds:g} s of oddstui serve into {folder} ...")
        record(folder, args.seconds, args.updates_per_second)
    recording = open_recording(folder)
    with collector_paused():
        records = list(recording.records())
    messages = sum(1 for r in records if isinstance(r, FeedMessage))
    print(f"recording:        {messages:,} messages, "
          f"{len(recording.manifest.bookmakers)} bookmakers")
    runs, cpu = [], []
    for _ in range(args.repeat):
        started = time.process_time()
        run = books_of(records, complete_markets=recording.manifest.complete_markets)
        cpu.append(run.messages / (time.process_time() - started))
        runs.append(run.messages / run.seconds)
    print(f"engine + feeder:  {statistics.median(runs):,.0f} msg/s in one process, median of "
          f"{len(runs)} (range {min(runs):,.0f}-{max(runs):,.0f}); "
          f"{statistics.median(cpu):,.0f} msg per CPU second (what a machine to itself would "
          f"give); {run.report.changes:,} price changes, {run.report.sharp_moves:,} sharp moves")
    for workers in sorted({1, default_workers()}):
        rates, per_cpu = [], []
        for _ in range(args.repeat):
            count, seconds, cpu_seconds = run_command(folder, workers)
            rates.append(count / seconds)
            per_cpu.append(count / cpu_seconds)
        print(f"whole command:    {statistics.median(rates):,.0f} msg/s with {workers} worker"
              f"{'s' if workers > 1 else ''}, median of {len(rates)} "
              f"(range {min(rates):,.0f}-{max(rates):,.0f}); "
              f"{statistics.median(per_cpu):,.0f} msg per CPU second of its processes, so "
              f"about {statistics.median(per_cpu) * workers:,.0f} msg/s with {workers} "
              "core(s) to itself (Python's start included)")
        emit(f"oddstui books, whole command, {workers} worker(s)", msg_per_s=rates,
             msg_per_cpu_s=per_cpu)
    workers = max(2, default_workers())
    share_cpu, parts = [], []
    with collector_paused():
        for share in shares_of(recording.manifest, workers):
            started = time.process_time()
            parts.append(watch_share(folder, None, share))
            share_cpu.append(time.process_time() - started)
        started = time.process_time()
        report_of(merge([part.engine for part in parts]))
        report_cpu = time.process_time() - started
    estimate = max(share_cpu) + report_cpu
    print(f"shares of {workers}:     CPU seconds {', '.join(f'{c:.2f}' for c in share_cpu)}, "
          f"merge and report {report_cpu:.2f}: with a core each, about "
          f"{messages / estimate:,.0f} msg/s (the busiest share and the report; without the "
          "worker's start and its engine's transfer)")
    emit(f"oddstui books, {workers} shares one after the other", cpu_estimate_msg_per_s=[
        messages / estimate])
    load = os.getloadavg()
    print(f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} cores "
          "(a shared machine: figures vary with it). Target: 20,000 msg/s.")


if __name__ == "__main__":
    main()
