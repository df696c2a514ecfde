"""The batch commands' arguments, checked before any service is asked (or started), and the
`live` event reference resolved against the service.

An event is named by its id, or by `live`: the live match most bookmakers quote (of `--sport`
when given), so that a script or the README can name "a live match" at any time without an id
that changes from day to day.
"""

from __future__ import annotations

import argparse
import math
from typing import Any

from oddstui.api import validate as check
from oddstui.api.errors import RequestRejected

#: The event reference that means "the busiest live match".
LIVE = "live"


class BadInput(Exception):
    """Bad flags or configuration: one line, exit status 2."""


def event_ref(text: str) -> int | str:
    """EVENT_ID as typed: a positive integer, or `live`."""
    if text.strip().casefold() == LIVE:
        return LIVE
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"EVENT_ID must be an event id (a positive integer) or {LIVE!r}, not {text!r}"
        ) from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"EVENT_ID must be positive, not {text!r}")
    return value


def line_value(text: str) -> str:
    """--line: a number (the handicap or total), passed on as typed."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--line must be a number such as 2.5, not {text!r}"
        ) from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"--line must be a finite number, not {text!r}")
    return text.strip()


def names(flag_value: str, flag: str) -> list[str]:
    found = [name.strip() for name in flag_value.split(",")]
    if not all(found):
        raise BadInput(f"{flag}: a comma-separated list of names, none empty")
    return found


def check_arguments(args: argparse.Namespace) -> None:
    """Every argument the SDK would refuse, refused now: before the built-in service starts."""
    try:
        if getattr(args, "sport", None) is not None:
            check.slug(args.sport, "--sport")
        if getattr(args, "bookmaker", None) is not None:
            check.bookmaker(args.bookmaker)
        if getattr(args, "bookmakers", None) is not None:
            check.bookmakers(names(args.bookmakers, "--bookmakers"), limit=None)
        if getattr(args, "markets", None) is not None:
            check.names(names(args.markets, "--markets"), "--markets")
        if getattr(args, "market", None) is not None:
            check.text(args.market, "--market")
        if getattr(args, "min_drop", None) is not None:
            check.min_drop(args.min_drop)
    except RequestRejected as error:
        raise BadInput(str(error)) from None
    if getattr(args, "event_id", None) == LIVE:
        return
    if getattr(args, "sport", None) is not None and args.command in ("odds", "movements"):
        raise BadInput(f"--sport picks the live match: use it with EVENT_ID {LIVE!r}")


LIVE_CANDIDATES = 10  # live matches `live` tries, busiest first, for a bookmaker's market


async def resolve_event(
    api: Any, ref: int | str, sport: str | None, quoted: tuple[str, str] | None = None
) -> int:
    """The event id a reference names; `live` is the live match most bookmakers quote, or with
    `quoted` = (bookmaker, market) the busiest live match whose market that bookmaker quotes now
    (in play a book may have stepped out of the busiest one), else the busiest."""
    if ref != LIVE:
        return int(ref)
    events = await api.live_events(sport)
    where = f" in {sport}" if sport else ""
    if not events:
        raise BadInput(f"no live match{where} right now: see `oddstui live`")
    busiest = sorted(events, key=lambda e: (-(e.bookmaker_count or 0), e.id))
    if quoted is None:
        return int(busiest[0].id)
    bookmaker, market = quoted
    for event in busiest[:LIVE_CANDIDATES]:
        record = await api.odds(event.id, [bookmaker])
        if any(quote.name == market for quote in record.bookmakers.get(bookmaker, ())):
            return int(event.id)
    return int(busiest[0].id)  # none has it: the service's answer says what it lacks
