"""Recordings built in the tests: wire JSON as /events, /odds and the feed send it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import orjson

from oddstui.recording.records import FeedMessage, Snapshot

AT = "2026-11-21T10:00:00Z"


def event(event_id: int, sport: str = "tennis", status: str = "pending") -> dict[str, Any]:
    return {
        "id": event_id,
        "home": f"Home {event_id}",
        "away": f"Away {event_id}",
        "date": "2026-11-21T13:00:00Z",
        "status": status,
        "sport": {"name": sport.title(), "slug": sport},
        "league": {"name": "League", "slug": f"{sport}-league"},
        "scores": {"home": 0, "away": 0, "periods": {}},
    }


def ml(home: float, away: float) -> dict[str, Any]:
    return {"name": "ML", "updatedAt": AT, "odds": [{"home": home, "away": away}]}


def totals(*lines: tuple[float, float, float]) -> dict[str, Any]:
    return {
        "name": "Totals",
        "updatedAt": AT,
        "odds": [{"hdp": hdp, "over": o, "under": u} for hdp, o, u in lines],
    }


def snapshot(t: float, books: dict[int, dict[str, list[dict[str, Any]]]], **kw: Any) -> Snapshot:
    events = tuple(event(event_id, **kw) for event_id in books)
    odds = tuple({**event(event_id, **kw), "bookmakers": b} for event_id, b in books.items())
    return Snapshot(t, events, odds)


def stamp(t: float) -> str:
    """`t` as the feed's timestamps write it (milliseconds, UTC)."""
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def updated(t: float, seq: int, event_id: int, bookie: str, markets: list[Any]) -> FeedMessage:
    """The message as sent at `t` (its timestamp) and received then (its record's time)."""
    message = {
        "type": "updated",
        "seq": seq,
        "timestamp": stamp(t),
        "id": str(event_id),
        "bookie": bookie,
        "markets": markets,
    }
    return as_read(t, seq, message)


def as_read(t: float, seq: int | None, message: dict[str, Any]) -> FeedMessage:
    """The message as a recording's reader gives it: its JSON text, parsed only when asked."""
    return FeedMessage(t, seq, text=orjson.dumps(message).decode())


def status(t: float, event_id: int, value: str) -> FeedMessage:
    message = {
        "type": "status",
        "id": event_id,
        "status": value,
        "timestamp": AT,
        "scores": {"home": 0, "away": 0, "periods": {}},
    }
    return FeedMessage(t, 0, message)


def write_recording(folder: Any, records: list[Snapshot | FeedMessage]) -> None:
    """The records through the recorder's own writer, into `folder`."""
    from oddstui.recording.writer import RecordingWriter

    writer = RecordingWriter(
        folder, source="http://127.0.0.1:1/v3", markets=None, bookmakers=["BookA"]
    )
    for record in records:
        if isinstance(record, Snapshot):
            writer.snapshot(list(record.events), list(record.odds), t=record.time)
        else:
            writer.message(record.seq, record.message, t=record.time)
    writer.close()
