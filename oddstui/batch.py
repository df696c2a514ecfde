"""Batch commands for scripts and tmux status lines:
`oddstui live|arbs|value|odds|dropping|movements [--json]`.

Exit status: 0 on success, 2 on bad input (flags, config, an event, market, bookmaker or sport
the service does not know), 1 when the service fails. Errors are one line on stderr; flags are
checked before any service is asked or started. With no API key and no service named
(`--base-url` or the config), the commands ask a running desk's built-in service at that seed (1,
or `--seed`; `service/desk_service.py`), so they print the prices the desk shows, or else start a
built-in service of their own (its world requotes on its own schedule: same matches, not the
same prices), and say which in one line on stderr. `odds` and
`movements` take an event id or `live` (the busiest live match, of `--sport` if given).
`--json` prints the SDK's records (snake_case fields, times in ISO-8601 UTC); without it a
compact plain-text table is printed (`batch_output`). `arbs` counts an exchange's leg net of the
`exchange_commission` setting, as the desk does (`book.exchange.paid_arbitrage`): its profit and
stakes are the desk's, and a line that is no arbitrage once commission is paid is left out.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from oddstui.api.errors import (
    BadRequest,
    MalformedRecord,
    NotFound,
    OddsApiError,
    RequestRejected,
    ServiceError,
    ServiceUnavailable,
)
from oddstui.api.models import ArbitrageBet, OddsRecord
from oddstui.api.models.derived import OptimalStake
from oddstui.api.redact import plain
from oddstui.api.rest import ApiClient, check_base_url
from oddstui.api.validate import MAX_BOOKMAKERS
from oddstui.batch_checks import BadInput, check_arguments, names, resolve_event
from oddstui.batch_output import (
    arb_rows,
    dropping_rows,
    emit,
    live_rows,
    movement_rows,
    odds_rows,
    value_rows,
)
from oddstui.book.arbitrage import ArbLeg
from oddstui.book.exchange import paid_arbitrage
from oddstui.config import (
    KEY_ENV,
    PUBLIC_BASE_URL,
    ConfigError,
    config_path,
    load_settings,
    resolve_api_key,
)

#: The batch commands, as `oddstui <command>` names them.
COMMANDS = ("live", "arbs", "value", "odds", "dropping", "movements")
BUILT_IN_NOTE = (
    "oddstui: no API key: asking a built-in service of its own (simulated data; a running "
    f"desk's world quotes its own prices); set {KEY_ENV} for a real one"
)
DESK_NOTE = "oddstui: no API key: asking the running desk's built-in service (simulated data)"

__all__ = ["COMMANDS", "BadInput", "run_batch"]

PUBLIC_TIMEOUT = 10.0  # seconds a request to a named service may take
# The built-in service was started for this command: its first answer about prices waits for
# them to open, which a loaded machine slows; that is no network fault to give up on.
BUILT_IN_TIMEOUT = 60.0


def run_batch(args: argparse.Namespace) -> int:
    service: Any = None
    try:
        check_arguments(args)
        base_url, key = _connection(args)
        if base_url is None:
            from oddstui.server.accounts import DEMO_KEY
            from oddstui.service.desk_service import find

            base_url, key = find(args.seed), DEMO_KEY
            if base_url is not None:
                sys.stderr.write(f"{DESK_NOTE} ({base_url}, seed {args.seed})\n")
        if base_url is None:
            from oddstui.service.assembly import Options
            from oddstui.service.embedded import start_embedded

            try:
                service = start_embedded(Options(seed=args.seed))
            except Exception as error:  # noqa: BLE001 - one line, never a traceback
                return _fail(f"the built-in service did not start: {error}", 1)
            sys.stderr.write(BUILT_IN_NOTE + "\n")
            base_url, key = service.base_url, service.api_key
        timeout = BUILT_IN_TIMEOUT if service is not None else PUBLIC_TIMEOUT
        return asyncio.run(_run(args, base_url, key or "", timeout))
    except (BadInput, ConfigError, RequestRejected, BadRequest, NotFound) as error:
        # 400 and 404: an event, market, bookmaker or sport the service does not know.
        return _fail(str(error), 2)
    except (ServiceError, ServiceUnavailable, MalformedRecord, OddsApiError) as error:
        return _fail(str(error), 1)
    finally:
        if service is not None:
            service.stop()


def _fail(message: str, status: int) -> int:
    sys.stderr.write(f"oddstui: {plain(message)}\n")
    return status


def _connection(args: argparse.Namespace) -> tuple[str | None, str | None]:
    """(base URL, key); (None, None) when neither is given: the built-in service then."""
    settings = load_settings()
    key = resolve_api_key(settings)
    named = args.base_url or settings.base_url
    if named is None and not key:
        return None, None
    try:
        base = check_base_url(named or PUBLIC_BASE_URL)
    except RequestRejected as error:
        raise BadInput(f"--base-url: {error}") from None
    if not key:
        raise BadInput(f"no API key for {base}: set {KEY_ENV} or api_key in {config_path()}")
    return base, key


async def _run(args: argparse.Namespace, base_url: str, key: str, timeout: float) -> int:
    async with ApiClient(base_url, key, timeout=timeout) as api:
        if args.command == "live":
            emit(args, await api.live_events(args.sport), live_rows)
        elif args.command == "arbs":
            books = await _bookmakers(api, args.bookmakers)
            arbs = await api.arbitrage_bets(books, limit=args.limit, include_event_details=True)
            emit(args, paid_arbitrages(arbs, load_settings().exchange_commission), arb_rows)
        elif args.command == "value":
            bets = await api.value_bets(
                args.bookmaker, sport=args.sport, include_event_details=True
            )
            emit(args, bets, value_rows)
        elif args.command == "odds":
            books = await _bookmakers(api, args.bookmakers)
            event_id = await resolve_event(api, args.event_id, args.sport)
            record = await _odds(api, event_id, books)
            emit(args, record, odds_rows)
        elif args.command == "dropping":
            items = await api.dropping_odds(
                sport=args.sport,
                markets=None if args.markets is None else names(args.markets, "--markets"),
                time_window=args.window,
                min_drop=args.min_drop,
                limit=args.limit,
                include_event_details=True,
            )
            emit(args, items, dropping_rows)
        elif args.command == "movements":
            quoted = (args.bookmaker, args.market)
            event_id = await resolve_event(api, args.event_id, args.sport, quoted)
            moves = await api.odds_movements(
                event_id, args.bookmaker, args.market, market_line=args.line
            )
            emit(args, moves, movement_rows)
        else:
            raise BadInput(f"unknown command {args.command!r}")
    return 0


def paid_arbitrages(arbs: Iterable[ArbitrageBet], commission: float) -> list[ArbitrageBet]:
    """The service's arbitrages as the desk counts them: each exchange leg net of the trader's
    `commission`, profit and equal-return stakes made again; one that is no arbitrage once
    commission is paid is left out. The service lists raw prices: it knows no trader's rate."""
    kept = []
    for item in arbs:
        arb = paid_arbitrage((ArbLeg(g.side, g.odds, g.bookmaker) for g in item.legs), commission)
        if arb is None:
            continue
        stakes = item.optimal_stakes
        if item.total_stake > 0:
            stakes = tuple(
                OptimalStake(leg.bookmaker, leg.side, stake, stake * leg.price)
                for leg, stake in zip(arb.legs, arb.stakes(item.total_stake), strict=True)
            )
        kept.append(
            replace(
                item,
                implied_probability=arb.implied_probability,
                profit_margin=arb.profit_pct,
                optimal_stakes=stakes,
            )
        )
    kept.sort(key=lambda item: -item.profit_margin)
    return kept


async def _bookmakers(api: ApiClient, flag: str | None) -> list[str]:
    if flag is not None:
        return names(flag, "--bookmakers")
    selection = await api.selected_bookmakers()
    if not selection.bookmakers:
        raise BadInput("no bookmakers selected on this account; pass --bookmakers A,B")
    return list(selection.bookmakers)


async def _odds(api: ApiClient, event_id: int, books: list[str]) -> OddsRecord:
    """GET /odds, in chunks of 30 bookmakers when the selection is larger, merged."""
    chunks = [books[i : i + MAX_BOOKMAKERS] for i in range(0, len(books), MAX_BOOKMAKERS)]
    records = [await api.odds(event_id, chunk) for chunk in chunks]
    first = records[0]
    for other in records[1:]:
        first.bookmakers.update(other.bookmakers)
        first.urls.update(other.urls)
        first.bookmaker_ids.update(other.bookmaker_ids)
    return first
