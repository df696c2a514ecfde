"""Run every benchmark and write `docs/benchmarks.md`: one table of current figures.

    python benchmarks/run_all.py                 # all of them, about 40 minutes
    python benchmarks/run_all.py --only relay,backtest
    python benchmarks/run_all.py --out /tmp/b.md

Each benchmark prints its own report and one `FIGURES {json}` line per row of the table
(`measure.emit`). A benchmark is run `runs` times (its own repeats count too: a figure given as
a list is every value of those repeats); each figure is shown as the median with its range.
Each row says when it was measured, at which commit and under what load. `--only` measures
the benchmarks named and keeps the page's other rows as they stand (with their own dates), so
the page is always one current table; the figures of earlier days are in git's history of the
page, not in it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PAGE = ROOT / "docs" / "benchmarks.md"
PREFIX = "FIGURES "


@dataclass(frozen=True)
class Benchmark:
    name: str
    args: tuple[str, ...]
    runs: int
    target: str

    @property
    def command(self) -> str:
        return " ".join(("python", f"benchmarks/{self.args[0]}", *self.args[1:]))


BENCHMARKS = (
    Benchmark("service_rest", ("service_rest.py", "--seconds", "10"), 3,
              "/odds p50 < 20 ms; /arbitrage-bets p99 < 100 ms"),
    Benchmark("service_feed", ("service_feed.py", "--seconds", "8",
                               "--updates-per-second", "2000"), 3, "p99 < 100 ms"),
    Benchmark("feed_ingest", ("feed_ingest.py",), 1, "≥ 50,000 msg/s of a core (3 markets)"),
    Benchmark("backtest", ("backtest.py",), 1, "≥ 20,000 msg/s"),
    Benchmark("books", ("books.py",), 1, "≥ 20,000 msg/s"),
    Benchmark("tui_live", ("tui_live.py", "--seconds", "20", "--updates-per-second", "4000"),
              3, "p95 ≤ 150 ms, ≤ 20 KiB/s, CPU ≤ 25 %, ≥ 10× fewer bytes than naive"),
    Benchmark("tui_boards", ("tui_boards.py", "--seconds", "15"), 3,
              "p95 ≤ 100 ms, ≤ 25 KiB/s, CPU ≤ 30 %"),
    Benchmark("launch", ("launch.py", "--runs", "5", "--desk-runs", "3"), 1,
              "serve ready < 1 s; desk's first live row < 2 s"),
    Benchmark("relay", ("relay.py", "--updates-per-second", "2000", "--clients", "50",
                        "--repeat", "5"), 1, "added p99 ≤ 50 ms; through NATS ≤ 100 ms"),
    Benchmark("relay_busy", ("relay.py", "--updates-per-second", "2000", "--clients", "50",
                             "--repeat", "5", "--busy-core"), 1,
              "added p99 ≤ 50 ms; through NATS ≤ 100 ms"),
    Benchmark("record", ("record.py", "--seconds", "20"), 1, "≤ 10 % of a core at 2,000 msg/s"),
    Benchmark("replay", ("replay.py",), 1, "≥ 20,000 msg/s to one client"),
    Benchmark("requests_per_hour", ("requests_per_hour.py",), 1,
              "paid Live < 200 an hour; free ≤ 100 an hour"),
    Benchmark("web", ("web.py",), 1, ""),
    Benchmark("grading", ("grading.py",), 1, ""),
    Benchmark("world_step", ("world_step.py", "--seconds", "10"), 1, ""),
    Benchmark("models_parse", ("models_parse.py",), 3, ""),
)  # fmt: skip


def figures_of(output: str) -> list[dict[str, object]]:
    """The `FIGURES` lines of a benchmark's output, in order."""
    return [json.loads(line[len(PREFIX) :]) for line in output.splitlines()
            if line.startswith(PREFIX)]  # fmt: skip


def gather(outputs: list[str]) -> dict[str, dict[str, list[float]]]:
    """Every value of every figure, by row, over the runs' outputs (rows in first-seen order)."""
    rows: dict[str, dict[str, list[float]]] = {}
    for output in outputs:
        for line in figures_of(output):
            row = rows.setdefault(str(line["row"]), {})
            for name, value in line.items():
                if name == "row":
                    continue
                values = value if isinstance(value, list) else [value]
                row.setdefault(name, []).extend(float(v) for v in values)  # type: ignore[arg-type]
    return rows


def shown(values: list[float]) -> str:
    """`median (low–high)`, or the one value; figures at the precision a reader can use."""
    def number(value: float) -> str:
        if abs(value) >= 1000:
            return f"{value:,.0f}"
        if abs(value) >= 100:
            return f"{value:.0f}"
        return f"{value:.3g}" if abs(value) < 10 else f"{value:.1f}"

    middle = number(statistics.median(values))
    if len(values) == 1 or min(values) == max(values):
        return middle
    return f"{middle} ({number(min(values))}–{number(max(values))})"


def table_rows(benchmark: Benchmark, outputs: list[str], measured: str = "") -> list[str]:
    lines = []
    for row, figures in gather(outputs).items():
        text = "; ".join(f"{name} {shown(values)}" for name, values in figures.items())
        runs = max(len(values) for values in figures.values())
        lines.append(f"| {row} | {text} | {runs} | {benchmark.target} | {measured} | "
                     f"`{benchmark.command}` |")  # fmt: skip
    return lines


def rows_on_page(text: str) -> dict[str, list[str]]:
    """The table rows of an existing page, by the command in their last cell."""
    rows: dict[str, list[str]] = {}
    for line in text.splitlines():
        if line.startswith("| ") and line.endswith("` |") and "`" in line:
            command = line.rsplit("`", 2)[1]
            rows.setdefault(command, []).append(line)
    return rows


def measured_note(began: datetime, loads: list[float]) -> str:
    """When a benchmark ran, at which commit, and the load average around it."""
    load = f"load {min(loads):.1f}–{max(loads):.1f}"
    return f"{began:%Y-%m-%d %H:%M}, {commit()}, {load}"


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
        memory = int(Path("/proc/meminfo").read_text().split()[1]) / 2**20
    except OSError:
        memory = float("nan")
    return (f"{model}, {os.cpu_count()} cores, {memory:.0f} GiB, Python "
            f"{platform.python_version()}, {platform.system()} {platform.release()}")  # fmt: skip


def commit() -> str:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        )
        return done.stdout.strip() or "unknown"
    except OSError:
        return "unknown"


def page(lines: list[str]) -> str:
    header = [
        "# Benchmarks: the current figures",
        "",
        "Written by `python benchmarks/run_all.py`; do not edit by hand. Each figure is the median",
        "of every measurement its run made, with its range; `runs` counts them. `measured` says",
        "when (UTC), at which commit and under what load average (1 minute, before and after);",
        "the machine is shared, and a figure moves with its load. Earlier figures are in this",
        "page's git history.",
        "",
        f"- machine: {machine()}",
        "",
        "| benchmark | figures: median (range) | runs | target | measured | command |",
        "|---|---|---|---|---|---|",
    ]
    return "\n".join(header + lines) + "\n"


def run(benchmark: Benchmark) -> tuple[list[str], str]:
    """The outputs of its runs, and "" or why it failed (the table says so; the rest go on)."""
    outputs = []
    for index in range(benchmark.runs):
        print(f"== {benchmark.command} (run {index + 1} of {benchmark.runs})", flush=True)
        result = subprocess.run([sys.executable, *benchmark.args], cwd=HERE,
                                capture_output=True, text=True)  # fmt: skip
        sys.stdout.write(result.stdout)
        if result.returncode != 0:
            last = (result.stderr.strip().splitlines() or ["(no error text)"])[-1]
            print(result.stderr[-2000:], file=sys.stderr)
            return outputs, f"failed (exit {result.returncode}): {last}"
        if not figures_of(result.stdout):
            return outputs, "printed no FIGURES line"
        outputs.append(result.stdout)
    return outputs, ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated names: " +
                        ", ".join(b.name for b in BENCHMARKS))  # fmt: skip
    parser.add_argument("--out", type=Path, default=PAGE)
    args = parser.parse_args(argv)
    chosen = list(BENCHMARKS)
    if args.only:
        names = set(args.only.split(","))
        unknown = names - {b.name for b in BENCHMARKS}
        if unknown:
            parser.error(f"--only: no benchmark named {', '.join(sorted(unknown))}")
        chosen = [b for b in BENCHMARKS if b.name in names]
    kept = rows_on_page(args.out.read_text()) if args.out.exists() else {}
    lines: list[str] = []
    failed = []
    for benchmark in BENCHMARKS:
        if benchmark not in chosen:
            lines += kept.get(benchmark.command, [])
            continue
        began, loads = datetime.now(UTC), [os.getloadavg()[0]]
        outputs, failure = run(benchmark)
        loads.append(os.getloadavg()[0])
        measured = measured_note(began, loads)
        lines += table_rows(benchmark, outputs, measured)
        if failure:
            failed.append(benchmark.name)
            lines.append(f"| {benchmark.name} | **{failure}** | | {benchmark.target} | "
                         f"{measured} | `{benchmark.command}` |")  # fmt: skip
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(page(lines))
    print(f"wrote {args.out}" + (f"; failed: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
