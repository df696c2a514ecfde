"""The Value bets board's export: one record per value bet it holds (columns in the README).
No textual here."""

from __future__ import annotations

from typing import Any

from oddstui.tui.boards.event_record import event_record, suspect_fields
from oddstui.tui.boards.value.value_rows import ValueLine
from oddstui.tui.desk.state import EventView


def value_record(
    line: ValueLine, event: EventView | None, now: float, suspect: str = ""
) -> dict[str, Any]:
    item = line.item
    quoted = item.bookmaker_updated_at or item.expected_value_updated_at
    quoted_at = None if quoted is None else quoted.timestamp()
    return {
        **event_record(item.event_id, event, item.event),
        "id": item.id,
        "market": item.market_name,
        "line": item.market_hdp,
        "side": item.bet_side,
        "bookmaker": item.bookmaker,
        "price": line.price,
        "fairPrice": line.fair,
        "fairMethod": line.method,
        "evPct": line.ev,
        "kellyStake": line.kelly,
        "maxStake": item.market_max,
        "updatedAt": quoted_at,
        "ageSeconds": None if quoted_at is None else max(now - quoted_at, 0.0),
        **suspect_fields(suspect),
    }
