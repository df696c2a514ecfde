"""Builders of wire JSON for the OddsBook tests, parsed by the real api parsers."""

from __future__ import annotations

import json
from typing import Any

from oddstui.api.messages import Message, parse_frame
from oddstui.api.models import OddsRecord, parse_odds_record


def ml(home: float, away: float, draw: float | None = None, at: str = "2026-11-21T10:00:00Z"):
    entry: dict[str, Any] = {"home": f"{home:.3f}", "away": f"{away:.3f}"}
    if draw is not None:
        entry["draw"] = f"{draw:.3f}"
    return {"name": "ML", "updatedAt": at, "odds": [entry]}


def totals(*lines: tuple[float, float, float], at: str = "2026-11-21T10:00:00Z"):
    return {
        "name": "Totals",
        "updatedAt": at,
        "odds": [{"hdp": hdp, "over": f"{o:.3f}", "under": f"{u:.3f}"} for hdp, o, u in lines],
    }


def record(
    event_id: int,
    bookmakers: dict[str, list[dict[str, Any]]],
    sport: str = "football",
    **extra: Any,
) -> OddsRecord:
    raw = {
        "id": event_id,
        "home": "Home FC",
        "away": "Away FC",
        "homeId": 1,
        "awayId": 2,
        "date": "2026-11-21T13:00:00Z",
        "status": extra.pop("status", "pending"),
        "sport": {"name": sport.title(), "slug": sport},
        "league": {"name": "League", "slug": "league"},
        "scores": extra.pop("scores", {"home": 0, "away": 0, "periods": {}}),
        "urls": {bookie: f"https://{bookie.lower()}.example/{event_id}" for bookie in bookmakers},
        "bookmakerIds": {},
        "bookmakers": bookmakers,
        **extra,
    }
    return parse_odds_record(raw)


def message(raw: dict[str, Any], received: float = 0.0) -> Message:
    messages, malformed = parse_frame(json.dumps(raw), received)
    assert malformed == 0 and len(messages) == 1
    return messages[0]


def updated(
    event_id: int, bookie: str, markets: list[dict[str, Any]], seq: int, received: float = 1.0
) -> Message:
    raw = {
        "type": "updated",
        "seq": seq,
        "timestamp": "2026-11-21T10:00:01Z",
        "id": str(event_id),
        "bookie": bookie,
        "url": f"https://{bookie.lower()}.example/{event_id}",
        "markets": markets,
    }
    return message(raw, received)


def cleared(event_id: int, bookie: str, kind: str, seq: int, received: float = 1.0) -> Message:
    return message({"type": kind, "seq": seq, "id": event_id, "bookie": bookie}, received)
