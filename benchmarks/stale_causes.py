"""Why a line is on the Stale lines board: a recording replayed through the intel engine, and
at given instants every open follow older than `--age` seconds classified, with the board's
rows beside it.

    python benchmarks/stale_causes.py RECORDING [--at 60,120,170] [--age 10]

Classes (each follow is one soft book pending on one confirmed sharp move): not behind (already
past half-way to the new price when the move began, or since: timed, but no row), the book moved
but is still behind, the book has not moved. (A move the sharp price took back is closed, so
none is open: the engine before that fix kept them to the horizon.) Then the board's rows
(`stale_rows`): how many, how many priced above fair (shown by default) and with EV above ε.

The replay feeds the engine as `oddstui books` does (backtest/books.py `_watch`), stopping at
each instant instead of finishing.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from oddstui.backtest.books import observe_record  # noqa: E402
from oddstui.backtest.feeding import BookFeeder  # noqa: E402
from oddstui.intel.behind import still_behind  # noqa: E402
from oddstui.intel.engine import IntelEngine  # noqa: E402
from oddstui.recording.reader import open_recording  # noqa: E402
from oddstui.tui.intel.stale_rows import stale_rows  # noqa: E402


def classify(engine: IntelEngine, now: float, age: float) -> Counter[str]:
    found: Counter[str] = Counter()
    for move in engine.open_moves():
        if now - move.start <= age:
            continue
        line = move.line
        behind = set(still_behind(move, line))
        for book, start in move.pending.items():
            position = line.positions.get(book)
            if book not in behind:
                found["not behind (past half-way at the start or since)"] += 1
            elif position != start:
                found["book moved, still behind"] += 1
            else:
                found["book has not moved"] += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("recording", type=Path)
    parser.add_argument("--at", default="60,120,170", help="seconds into the recording")
    parser.add_argument("--age", type=float, default=10.0)
    args = parser.parse_args()
    instants = sorted(float(part) for part in args.at.split(","))
    recording = open_recording(args.recording)
    feeder = BookFeeder()
    feeder.lines.complete_markets = recording.manifest.complete_markets
    engine = IntelEngine()
    epsilon = engine.settings.epsilon
    first: float | None = None
    for record in recording.records():
        stamp = record.time
        first = stamp if first is None else first
        while instants and stamp - first >= instants[0]:
            engine.advance(stamp)
            found = classify(engine, stamp, args.age)
            rows = stale_rows(engine)
            above = sum(1 for row in rows if row.ev is None or row.ev > 0.0)
            edges = sum(1 for row in rows if row.ev is not None and row.ev > epsilon)
            print(f"at {instants.pop(0):.0f} s: {sum(found.values())} open follows older than "
                  f"{args.age:g} s; board: {len(rows)} rows, {above} shown by default (above "
                  f"fair or no fair), {edges} with EV above {epsilon:.0%}")
            for name, count in found.most_common():
                print(f"  {count:6}  {name}")
        if not instants:
            break
        observe_record(engine, feeder, record, stamp)


if __name__ == "__main__":
    main()
