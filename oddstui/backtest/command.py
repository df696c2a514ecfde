"""The `oddstui backtest` and `oddstui export` command lines, and running them."""

from __future__ import annotations

import argparse
import gc
import sys
from pathlib import Path

import orjson

from oddstui import config
from oddstui.backtest import flags as F
from oddstui.backtest.books_command import add_books_command
from oddstui.backtest.partition import MAX_WORKERS
from oddstui.backtest.value_bets import DEFAULT_MIN_EV, DEFAULT_SHARPS
from oddstui.book.alert_rules_file import rules_from_toml
from oddstui.book.alert_watch import AlertRules
from oddstui.recording.reader import open_recording
from oddstui.recording.records import RecordingError

COMMANDS = ("backtest", "export", "books")


def add_backtest_commands(commands: argparse._SubParsersAction) -> None:
    backtest = commands.add_parser(
        "backtest",
        help="run the desk's alert rules, arbitrage scan and value maths over a recording",
        description="Replay a recording (see `oddstui record`) through the desk's own book as "
        "fast as it goes, and report every alert firing, every arbitrage seen and each value "
        "bet with its closing-line value.",
    )
    backtest.add_argument("path", metavar="PATH", help="the recording's folder")
    backtest.add_argument(
        "--alerts",
        metavar="FILE",
        help=f"alert rules (default: the desk's, {config.alert_rules_path()})",
    )
    backtest.add_argument(
        "--sharp",
        metavar="BOOKMAKER[,BOOKMAKER...]",
        type=F.sharp_books,
        default=DEFAULT_SHARPS,
        help="the sharp books, first preferred, whose fair price values bets (default the "
        f"desk's: {','.join(DEFAULT_SHARPS)})",
    )
    backtest.add_argument(
        "--min-ev",
        metavar="PCT",
        type=F.non_negative("--min-ev"),
        default=DEFAULT_MIN_EV,
        help=f"smallest EV %% counted as a value bet (default {DEFAULT_MIN_EV})",
    )
    backtest.add_argument(
        "--commission",
        metavar="RATE",
        type=_commission,
        help="the exchanges' commission on winnings, 0.05 for 5 %% (default: the desk's "
        "exchange_commission setting); an exchange's back price counts net of it",
    )
    backtest.add_argument(
        "--workers",
        metavar="N",
        type=F.workers,
        help="processes that share the events out (default: one a core, at most "
        f"{MAX_WORKERS}; 1 runs in this one)",
    )
    backtest.add_argument("--json", action="store_true", help="print one JSON object")
    add_books_command(commands)
    export = commands.add_parser(
        "export", help="write a recording's price ticks as Parquet (needs oddstui[parquet])"
    )
    export.add_argument("path", metavar="PATH", help="the recording's folder")
    export.add_argument(
        "--parquet", metavar="DIR", required=True, help="folder to write ticks.parquet in"
    )



def _commission(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--commission must be a number, got {text!r}") from None
    if not 0.0 <= value < 1.0:
        message = f"--commission must be 0 or more and below 1, got {text!r}"
        raise argparse.ArgumentTypeError(message)
    return value




def run_command(args: argparse.Namespace) -> int:
    # A command over a recording: what it builds lives to its end and holds no reference
    # cycles, so the cyclic collector stays off until its answer is out (each pass over
    # millions of live objects, and the full one a paused collector makes as it is turned on
    # again, were 3.6 % of `oddstui books`).
    enabled = gc.isenabled()
    gc.disable()
    try:
        if args.command == "export":
            return _export(args)
        if args.command == "books":
            from oddstui.backtest.books_command import run_books

            return run_books(args)
        return _backtest(args)
    except RecordingError as error:
        sys.stderr.write(f"oddstui: {error}\n")
        return 2
    finally:
        if enabled:
            gc.enable()


def _backtest(args: argparse.Namespace) -> int:
    from oddstui.backtest.engine import Judging, collector_paused
    from oddstui.backtest.parallel import backtest_recording, default_workers
    from oddstui.backtest.report import to_json, to_table

    rules = load_alert_rules(args.alerts)
    settings = config.load_settings()
    commission = settings.exchange_commission if args.commission is None else args.commission
    judging = Judging(args.sharp, args.min_ev, commission, settings.suspect_profit)
    report = backtest_recording(
        args.path, rules, workers=args.workers or default_workers(), judging=judging
    )
    with collector_paused():  # the report's tens of thousands of findings hold no cycles
        if args.json:
            sys.stdout.buffer.write(orjson.dumps(to_json(report)) + b"\n")
        else:
            sys.stdout.write(to_table(report))
    return 0


def load_alert_rules(given: str | None) -> AlertRules:
    """The rules of `--alerts FILE` (which must exist), or the desk's (none when missing)."""
    path = config.alert_rules_path() if given is None else Path(given)
    if given is not None and not path.is_file():
        raise config.ConfigError(f"--alerts: no such file {path}")
    raw = config.read_toml(path)
    try:
        return rules_from_toml(raw)
    except ValueError as error:
        raise config.ConfigError(f"{path}: a broken alert rule ({error})") from None


def _export(args: argparse.Namespace) -> int:
    from oddstui.backtest.export import ParquetMissing, export_parquet

    recording = open_recording(args.path)
    try:
        target, rows = export_parquet(recording.records(), Path(args.parquet))
    except ParquetMissing as error:
        sys.stderr.write(f"oddstui: {error}\n")
        return 2
    except OSError as error:
        sys.stderr.write(f"oddstui: {args.parquet}: cannot write ({error.strerror or error})\n")
        return 2
    sys.stdout.write(f"{rows} price ticks written to {target}\n")
    return 0
