"""`oddstui bets`: the bet log for scripts (`--json`: one record per leg) or as a table."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from datetime import datetime
from pathlib import Path

from oddstui.api.errors import NotFound, OddsApiError, RequestRejected
from oddstui.api.redact import plain
from oddstui.betlog.bets import OPEN, SETTLED, Bet, bet_records
from oddstui.betlog.grading import Disagreement, check_grades
from oddstui.betlog.store import BetLog, BetLogError
from oddstui.book.formats import format_price
from oddstui.config import KEY_ENV, PUBLIC_BASE_URL, ConfigError, load_settings, resolve_api_key

COLUMNS = (
    ("Bet", 4), ("Placed", 11), ("Event", 24), ("Line", 14), ("Side", 5), ("Book", 12),
    ("Price", 6), ("Stake", 8), ("Result", 9), ("P&L", 8), ("CLV", 8),
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
    bets.add_argument(
        "--check",
        action="store_true",
        help="ask the service's grader (POST /settlements/grade) about every leg settled from "
        "the score and list where it disagrees (the service: --base-url, the key: "
        f"{KEY_ENV} or the config)",
    )
    bets.add_argument("--base-url", metavar="URL", help="the service --check asks")


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
    if args.check:
        return run_check(args, bets)
    try:
        if args.json:
            sys.stdout.write(json.dumps(bet_records(bets), ensure_ascii=False) + "\n")
        else:
            sys.stdout.write("\n".join(table_lines(bets)) + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        pass
    return 0


def run_check(args: argparse.Namespace, bets: list[Bet]) -> int:
    """`oddstui bets --check`: one line per disagreement, then the count; 2 on bad input."""
    from oddstui.api.rest import check_base_url  # the HTTP client: only where it is used

    try:
        settings = load_settings()
        key = resolve_api_key(settings)
        base = check_base_url(args.base_url or settings.base_url or PUBLIC_BASE_URL)
    except (ConfigError, RequestRejected) as error:
        sys.stderr.write(f"oddstui: {plain(str(error))}\n")
        return 2
    if not key:
        sys.stderr.write(f"oddstui: --check needs an API key: set {KEY_ENV} or api_key\n")
        return 2
    try:
        checked, found = asyncio.run(_check(base, key, bets))
    except NotFound:
        sys.stderr.write(f"oddstui: {base} does not grade bets (no /settlements/grade)\n")
        return 1
    except OddsApiError as error:
        sys.stderr.write(f"oddstui: {plain(str(error))}\n")
        return 1
    lines = [plain(item.line) for item in found]
    lines.append(f"{checked} legs settled from the score checked · {len(found)} disagree")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


async def _check(base: str, key: str, bets: list[Bet]) -> tuple[int, list[Disagreement]]:
    from oddstui.api.rest import ApiClient

    async with ApiClient(base, key) as api:
        return await check_grades(api, bets)


def table_lines(bets: list[Bet]) -> list[str]:
    if not bets:
        return ["no bets logged"]
    lines = [" ".join(f"{label:<{width}}" for label, width in COLUMNS).rstrip()]
    for bet in bets:
        placed = datetime.fromtimestamp(bet.placed_at).strftime("%m-%d %H:%M")
        for index, leg in enumerate(bet.legs):
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
                bet.clv_text(index),
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
