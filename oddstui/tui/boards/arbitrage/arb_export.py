"""The Arbitrage board's export: one record per arbitrage it holds, every leg's bookmaker, side,
price and stake as numbers (columns in the README). No textual here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from oddstui.tui.boards.arbitrage.arb_rows import ArbRow
from oddstui.tui.boards.event_record import suspect_fields
from oddstui.tui.desk.state import EventView

#: The total the exported stakes are for (equal returns: MATHS.md).
EXPORT_TOTAL = 100.0


def arb_record(
    row: ArbRow, event: EventView | None, now: float, suspect: str = ""
) -> dict[str, Any]:
    """`row` as data: ids, names, market and line, profit, and per leg `leg{n}…` columns."""
    start = event.start.timestamp() if event and event.start else row.start
    record: dict[str, Any] = {
        "eventId": row.event_id,
        "sport": event.sport_name if event else row.sport,
        "league": event.league_name if event else row.league,
        "event": event.title if event else f"{row.home} v {row.away}",
        "startsAt": start,
        "status": event.status if event else "",
        "market": row.market,
        "line": row.hdp,
        "label": row.label or "",
        "profitPct": row.profit_pct,
        "impliedProbability": row.implied,
        "source": row.source_label,
        "updatedAt": row.service_updated,
        "ageSeconds": None if row.service_updated is None else max(now - row.service_updated, 0.0),
        "totalStake": EXPORT_TOTAL,
        "legs": len(row.legs),
        **suspect_fields(suspect),
    }
    for number, (leg, stake) in enumerate(zip(row.legs, leg_stakes(row), strict=True), 1):
        record[f"leg{number}Bookmaker"] = leg.bookmaker
        record[f"leg{number}Side"] = leg.side
        record[f"leg{number}Price"] = leg.price
        record[f"leg{number}Commission"] = leg.commission
        record[f"leg{number}Stake"] = stake
        record[f"leg{number}UpdatedAt"] = leg.quoted
    return record


def leg_stakes(row: ArbRow, total: float = EXPORT_TOTAL) -> list[float]:
    """Equal-return stakes on `total`, each leg counted at what it pays net of commission."""
    return [total * (1.0 / leg.paid) / row.implied for leg in row.legs]


def arb_records(
    rows: Iterable[tuple[ArbRow, str]], events: dict[int, EventView], now: float
) -> list[dict[str, Any]]:
    """`rows`: each arbitrage with why it is suspect ("" when not)."""
    return [arb_record(row, events.get(row.event_id), now, why) for row, why in rows]
