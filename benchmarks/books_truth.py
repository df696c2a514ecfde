"""Bookmaker intelligence against the world's truth: `oddstui books` over a recording of
`oddstui serve --truth FILE`, each measure set beside what the world simulates.

    python benchmarks/books_truth.py RECORDING TRUTH.json [--least 30]

Prints, per bookmaker, its measured median lag (all moves, before kick-off, in play) beside the
lag its latency implies, then the rank correlation of measured median lag against
`latencySeconds` over books with `--least` follows or more, the share of medians within 25 %
of the implied lag, and the sister groups found against the truth's.

The implied median lag is the truth's `medianLagSeconds`: the world follows a move before
kick-off after latency × U(0.3, 1.6) (median 0.95 × latency) and in play after
(0.5 + 0.15 × latency) × U(0.5, 1.5) (median 0.5 + 0.15 × latency); a sister copies its parent
after its copy delay, 0.15 times of it in play (like any latency). The rank correlations
against the implied lag, before kick-off and in play, are printed too.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from oddstui.backtest.books import books_of_recording  # noqa: E402
from tests.intel.ranks import rank_correlation  # noqa: E402


def implied(truth: dict, name: str, live: bool) -> float:
    """The median lag the world's truth implies for a book, before kick-off or in play: its
    `medianLagSeconds` (truth files written before it: from the rule)."""
    book = truth[name]
    if "medianLagSeconds" in book:
        return book["medianLagSeconds"]["inPlay" if live else "preMatch"]
    parent = book["sisterOf"]
    if parent:
        # A truth file from before `medianLagSeconds`: the copy then counted whole in play.
        return implied(truth, parent, live) + (book["copyDelaySeconds"] or 0.0)
    latency = book["latencySeconds"]
    return 0.5 + 0.15 * latency if live else 0.95 * latency


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("recording", type=Path)
    parser.add_argument("truth", type=Path)
    parser.add_argument("--least", type=int, default=30)
    args = parser.parse_args()
    truth = json.loads(args.truth.read_text())["bookmakers"]
    run = books_of_recording(args.recording, workers=1)
    print(f"{run.messages:,} messages over {run.report.seconds:.0f} s; "
          f"{run.report.sharp_moves:,} sharp moves")
    print(f"{'bookmaker':18} {'latency':>7}  {'all':>12}  {'pre-match (implied)':>24}  "
          f"{'in play (implied)':>24}  cluster (truth)")
    kinds: dict[str, tuple[list[float], list[float]]] = {
        "all": ([], []), "all, independent books": ([], []), "pre": ([], []), "live": ([], []),
        "pre, against the implied lag": ([], []), "live, against the implied lag": ([], [])}
    within = {"pre": [0, 0], "live": [0, 0]}
    for b in run.report.books:
        if b.sharp:
            continue
        t = truth[b.bookmaker]
        pre, live = b.pre_match, b.in_play
        cells = []
        for kind, (median, n), is_live in (("pre", (pre[0], pre[2]), False),
                                           ("live", (live[0], live[2]), True)):
            want = implied(truth, b.bookmaker, is_live)
            cells.append(f"{median if median is None else round(median, 2)!s:>6}/{n:<5} "
                         f"({want:5.2f})")
            if median is not None and n >= args.least:
                kinds[kind][0].append(median)
                kinds[kind][1].append(t["latencySeconds"])
                kinds[f"{kind}, against the implied lag"][0].append(median)
                kinds[f"{kind}, against the implied lag"][1].append(want)
                within[kind][0] += abs(median / want - 1.0) <= 0.25
                within[kind][1] += 1
        if b.lag_median is not None and b.follows >= args.least:
            for kind in ("all",) if t["sisterOf"] else ("all", "all, independent books"):
                kinds[kind][0].append(b.lag_median)
                kinds[kind][1].append(t["latencySeconds"])
        print(f"{b.bookmaker:18} {t['latencySeconds']:7.2f}  "
              f"{b.lag_median if b.lag_median is None else round(b.lag_median, 2)!s:>6}/"
              f"{b.follows:<5}  {cells[0]:>24}  {cells[1]:>24}  {b.cluster} "
              f"({t['sisterOf'] or b.bookmaker})")
    for kind, (measured, latency) in kinds.items():
        if len(measured) >= 3:
            against = "" if "implied" in kind else " against latencySeconds"
            print(f"rank correlation ({kind}){against}: "
                  f"{rank_correlation(measured, latency):.3f} over "
                  f"{len(measured)} books with {args.least}+ follows")
    for kind, (good, total) in within.items():
        print(f"medians within 25 % of the implied lag ({kind}): {good} of {total}")
    found = {b.bookmaker: b.cluster for b in run.report.books}
    wrong = [n for n in found if found[n] != (truth[n]["sisterOf"] or n)]
    groups = sorted({tuple(sorted(n for n in found if found[n] == c)) for c in found.values()})
    print(f"sister groups found: {[g for g in groups if len(g) > 1]}; "
          f"books in the wrong cluster: {wrong or 'none'}")


if __name__ == "__main__":
    main()
