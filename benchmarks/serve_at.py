"""`oddstui serve` with its world started at a fixed moment, for benchmarks that must compare
runs: the world is a function of the calendar, so its number of live matches (and the feed's
rate on the busiest one) follows the time of day. A run at 22:00 UTC saw 23 odds messages a
second where one at noon saw 2,000, with the same flags.

    python benchmarks/serve_at.py EPOCH_SECONDS [oddstui serve flags...]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from oddstui.cli import main
from oddstui.service import assembly

#: Saturday 2026-11-21 15:30 UTC: football across Europe in play.
BUSY_MOMENT = 1795275000.0


def serve_at(start: float, argv: list[str]) -> int:
    from_args = assembly.Options.from_args

    def with_start(args: argparse.Namespace) -> assembly.Options:
        return replace(from_args(args), start=start)

    assembly.Options.from_args = with_start  # type: ignore[method-assign]
    return main(["serve", *argv])


if __name__ == "__main__":
    sys.exit(serve_at(float(sys.argv[1]), sys.argv[2:]))
