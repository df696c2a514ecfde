"""The `oddstui books PATH [--json]` command line: a recording's bookmaker intelligence."""

from __future__ import annotations

import argparse
import sys

import orjson

from oddstui.backtest import flags as F
from oddstui.backtest.partition import MAX_WORKERS
from oddstui.intel import settings as S


def add_books_command(commands: argparse._SubParsersAction) -> None:
    books = commands.add_parser(
        "books",
        help="who leads, who follows: each bookmaker's lag, leadership, stale lines, sisters",
        description="Run a recording's price changes through the bookmaker intelligence engine "
        "and report, per bookmaker, its lag to follow a sharp move, its share of moves led, its "
        "updates per market-hour, margin, sister cluster and stale-line life, and the steam "
        "events (docs/books.md).",
    )
    books.add_argument("path", metavar="PATH", help="the recording's folder")
    books.add_argument("--theta", metavar="SHARE", type=F.share("--theta"), default=S.THETA,
                       help=f"least relative sharp move (default {S.THETA})")
    books.add_argument("--tau", metavar="SECONDS", type=F.positive("--tau"), default=S.TAU,
                       help=f"seconds a sharp move must hold (default {S.TAU:g})")
    books.add_argument("--epsilon", metavar="SHARE", type=F.share("--epsilon"), default=S.EPSILON,
                       help=f"EV above which a price is stale (default {S.EPSILON})")
    books.add_argument("--k", metavar="N", type=_clusters, default=S.K_CLUSTERS,
                       help=f"independent clusters for a steam event (default {S.K_CLUSTERS})")
    books.add_argument("--window", metavar="SECONDS", type=F.positive("--window"),
                       default=S.WINDOW, help=f"seconds of one episode (default {S.WINDOW:g})")
    books.add_argument("--horizon", metavar="SECONDS", type=F.positive("--horizon"),
                       default=S.HORIZON,
                       help=f"seconds to follow before censored (default {S.HORIZON:g})")
    books.add_argument("--sharp", metavar="A,B", type=F.sharp_books,
                       default=",".join(S.SHARP_BOOKS),
                       help=f"the sharp books (default {','.join(S.SHARP_BOOKS)})")
    books.add_argument("--workers", metavar="N", type=F.workers,
                       help="processes that share the events out (default: one a core, at most "
                       f"{MAX_WORKERS}; 1 runs in this one)")
    books.add_argument("--json", action="store_true", help="print one JSON object")





def _clusters(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--k must be a whole number, got {text!r}") from None
    if not 2 <= value <= 50:
        raise argparse.ArgumentTypeError(f"--k must be 2 to 50, got {text!r}")
    return value




def run_books(args: argparse.Namespace) -> int:
    from oddstui.backtest.books import books_of_recording
    from oddstui.backtest.engine import collector_paused
    from oddstui.backtest.parallel import default_workers
    from oddstui.intel.books_table import to_table
    from oddstui.intel.report import to_json
    from oddstui.intel.settings import IntelSettings

    sharp = args.sharp if isinstance(args.sharp, tuple) else F.sharp_books(args.sharp)
    settings = IntelSettings(theta=args.theta, tau=args.tau, epsilon=args.epsilon, k=args.k,
                             window=args.window, horizon=args.horizon, sharp=sharp)
    with collector_paused(freeze=True):  # the command ends with the run
        run = books_of_recording(args.path, settings, args.workers or default_workers())
        if args.json:
            data = to_json(run.report, run.engine, run.titles)
            data["summary"]["messages"] = run.messages
            data["summary"]["malformed"] = run.malformed
            data["summary"]["runSeconds"] = round(run.seconds, 3)
            sys.stdout.buffer.write(orjson.dumps(data) + b"\n")
        else:
            sys.stdout.write(to_table(run.report, run.titles))
    return 0
