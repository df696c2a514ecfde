"""`oddstui bets`: the bet log for scripts (`--json`: one record per leg) or as a table."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime
from pathlib import Path

from oddstui.api.redact import plain
from oddstui.betlog.bets import OPEN, SETTLED, Bet, bet_records
from oddstui.betlog.store import BetLog, BetLogError
from oddstui.book.formats import format_price

COLUMNS = (
    ("Bet", 4), ("Placed", 11), ("Event", 24), ("Line", 14), ("Side", 5), ("Book", 12),
    ("Price", 6), ("Stake", 8), ("Result", 9), ("P&L", 8), ("CLV", 7),
)  # fmt: skip


def add_bets_command(commands: argparse._SubParsersAction) -> None:
    bets = commands.add_parser(
        "bets",
        help="print the bet log (the bets taken at the stake ticket)",
        description="The bets taken at the desk's stake ticket, newest first, one line per leg.",
    )
    bets.add_argument("--json", action="store_true", help="print JSON: one record per leg")
    bets.add_argument("--status", choices=(OPEN, SETTLED), help="only open or settled bets")
    bets.add_argument("--file", metavar="PATH", help="the bet log (default: the data folder's)")


def run_bets(args: argparse.Namespace) -> int:
    log = BetLog(Path(args.file) if args.file else None)
    try:
        bets = log.bets()
    except BetLogError as error:
        sys.stderr.write(f"oddstui: {plain(str(error))}\n")
        return 1
    if log.warning:
        sys.stderr.write(f"oddstui: {plain(log.warning)}\n")
    if args.status:
        bets = [bet for bet in bets if bet.status == args.status]
    try:
        if args.json:
            sys.stdout.write(json.dumps(bet_records(bets), ensure_ascii=False) + "\n")
        else:
            sys.stdout.write("\n".join(table_lines(bets)) + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        pass
    return 0


def table_lines(bets: list[Bet]) -> list[str]:
    if not bets:
        return ["no bets logged"]
    lines = [" ".join(f"{label:<{width}}" for label, width in COLUMNS).rstrip()]
    for bet in bets:
        placed = datetime.fromtimestamp(bet.placed_at).strftime("%m-%d %H:%M")
        for leg in bet.legs:
            cells = (
                str(bet.id or "-"),
                placed,
                bet.event_name,
                leg.line_text,
                leg.side,
                leg.bookmaker,
                format_price(leg.price),  # the bookmaker's own places: 2.317, not 2.32
                f"{leg.stake:.2f}",
                leg.result_word,
                "" if leg.profit is None else f"{leg.profit:+.2f}",
                "" if leg.clv is None else f"{leg.clv * 100:+.1f}%",
            )
            lines.append(
                " ".join(
                    f"{plain(cell)[:width]:<{width}}"
                    for cell, (_, width) in zip(cells, COLUMNS, strict=True)
                ).rstrip()
            )
    settled = [bet.profit for bet in bets if bet.profit is not None]
    lines.append(f"{len(bets)} bets · {len(bets) - len(settled)} open · P&L {sum(settled):+.2f}")
    return lines
