"""The event columns every board's export starts with: id, sport, league, name, start, status.
No textual here."""

from __future__ import annotations

from typing import Any

from oddstui.api.models import EventSummary
from oddstui.tui.desk.state import EventView


def event_record(
    event_id: int, event: EventView | None, summary: EventSummary | None
) -> dict[str, Any]:
    """From the desk's event when it has it, else from the service's event details."""
    if event is not None:
        start = event.start
        names = (event.sport_name, event.league_name, event.title, event.status)
    elif summary is not None:
        start = summary.date
        names = (
            summary.sport.name if summary.sport else "",
            summary.league.name if summary.league else "",
            f"{summary.home} v {summary.away}",
            "",
        )
    else:
        start, names = None, ("", "", "", "")
    sport, league, name, status = names
    return {
        "eventId": event_id,
        "sport": sport,
        "league": league,
        "event": name,
        "startsAt": None if start is None else start.timestamp(),
        "status": status,
    }


def suspect_fields(reason: str) -> dict[str, Any]:
    """Every board's export says which rows the board marks ⚠ (and hides by default), and why:
    `suspect` true or false and `suspectReason` ("" when not suspect)."""
    return {"suspect": bool(reason), "suspectReason": reason}
