"""The Dropping odds board's export: one record per price it holds (columns in the README).
No textual here."""

from __future__ import annotations

from typing import Any

from oddstui.api.models import DroppingOdds
from oddstui.tui.boards.event_record import event_record, suspect_fields
from oddstui.tui.desk.state import EventView


def dropping_record(
    item: DroppingOdds, event: EventView | None, now: float, suspect: str = ""
) -> dict[str, Any]:
    moved = None if item.last_moved_at_ms is None else item.last_moved_at_ms / 1000
    return {
        **event_record(item.event_id, event, item.event),
        "market": item.market_name,
        "line": item.market_hdp,
        "label": item.market_label or "",
        "side": item.bet_side,
        "openingPrice": item.opening,
        "price": item.current,
        "dropSinceOpeningPct": item.drop_since_opening,
        "drop12hPct": item.drop_12h,
        "drop24hPct": item.drop_24h,
        "drop48hPct": item.drop_48h,
        "lastMovedAt": moved,
        "movedSecondsAgo": None if moved is None else max(now - moved, 0.0),
        "updatedAt": item.updated_at_ms / 1000,
        **suspect_fields(suspect),
    }
