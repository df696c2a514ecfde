"""Bookmakers' limits for the stake ticket when the feed's book does not hold the line (a row
known only from the service's list): read once from GET /odds when the ticket opens. No textual.

A line's `max` is the most its bookmaker takes on it; the ticket caps each leg by it
(`book.stakes.within_limits`), so a leg with no known limit would be staked without a cap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from oddstui.api.models import OddsRecord
from oddstui.tui.boards.ticket.stakes import TicketLeg


def line_limits(
    record: OddsRecord, market: str, line: tuple[float | None, str | None]
) -> dict[str, float | None]:
    """Each bookmaker's `max` on one market line of the record (None: it quotes no max)."""
    found: dict[str, float | None] = {}
    for bookmaker, quotes in record.bookmakers.items():
        for quote in quotes:
            if quote.name != market:
                continue
            for entry in quote.lines:
                if (entry.hdp, entry.label) == line:
                    found[bookmaker] = entry.max
    return found


def with_limits(legs: Sequence[TicketLeg], limits: dict[str, float | None]) -> list[TicketLeg]:
    """The legs, each without a known limit given its bookmaker's from `limits`."""
    return [
        replace(leg, limit=limits[leg.bookmaker])
        if leg.limit is None and limits.get(leg.bookmaker) is not None
        else leg
        for leg in legs
    ]
