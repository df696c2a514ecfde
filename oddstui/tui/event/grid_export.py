"""The Event grid's export: one record per bookmaker of each market and line shown (the stepped
one, then those beside it on a wide terminal), every side's price as a number (columns in the
README). No textual here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from oddstui.book.state import LineKey
from oddstui.tui.desk.state import EventView
from oddstui.tui.event.market_panels import Panels
from oddstui.tui.event.price_rows import GridRow


def grid_records(
    event_id: int,
    event: EventView | None,
    market: str | None,
    line: LineKey | None,
    sides: Sequence[str],
    rows: Sequence[GridRow],
) -> list[dict[str, Any]]:
    hdp, label = line if line is not None else (None, None)
    head = {
        "eventId": event_id,
        "sport": event.sport_name if event else "",
        "league": event.league_name if event else "",
        "event": event.title if event else "",
        "status": event.status if event else "",
        "market": market or "",
        "line": hdp,
        "label": label or "",
    }
    records = []
    for row in rows:
        record: dict[str, Any] = {**head, "bookmaker": row.bookmaker}
        for side, figure in zip(sides, row.prices, strict=False):
            record[f"{side}Price"] = figure.price
            record[f"{side}Best"] = figure.best
        record["margin"] = row.margin
        record["ageSeconds"] = row.age
        record["stale"] = row.stale
        records.append(record)
    return records


def beside_records(
    event_id: int, event: EventView | None, panels: Panels | None
) -> list[dict[str, Any]]:
    """The records of every market shown beside the stepped one (a wide terminal)."""
    records: list[dict[str, Any]] = []
    for view in panels.beside if panels is not None else ():
        records += grid_records(event_id, event, view.market, view.line, view.sides, view.rows)
    return records
