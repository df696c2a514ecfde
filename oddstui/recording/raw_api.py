"""The REST client of a recorder: the SDK's `ApiClient`, keeping the bodies as they came.

A recording stores what the service sent, not what our models make of it, so the snapshot the
feed client asks for keeps each event's raw /odds body (joined across bookmaker chunks) until
the recorder writes it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from oddstui.api.models import OddsRecord, parse_odds_record
from oddstui.api.rest import ApiClient
from oddstui.api.rest_session import response_seq


class RawApi(ApiClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.raw_odds: dict[int, dict[str, Any]] = {}  # fetched, not yet written
        self.raw_events: dict[int, dict[str, Any]] = {}  # the latest /events answer per id

    async def odds_multi_with_seq(
        self, event_ids: Iterable[int | str], bookmakers: Iterable[str] | str
    ) -> tuple[list[OddsRecord], int]:
        params = self._multi_params(event_ids, bookmakers)
        params["includeSeq"] = "true"
        response = await self._send("GET", "/odds/multi", params)
        assert response is not None
        body = self._json(response, "/odds/multi")
        records = self._items(body, parse_odds_record, "/odds/multi")
        for raw in body if isinstance(body, list) else ():
            if isinstance(raw, dict) and isinstance(raw.get("id"), int):
                self._keep(raw)
        return records, response_seq(response, "/odds/multi")

    def _keep(self, raw: dict[str, Any]) -> None:
        held = self.raw_odds.get(raw["id"])
        if held is None:
            self.raw_odds[raw["id"]] = raw
            return
        for field in ("bookmakers", "urls", "bookmakerIds"):  # one more chunk of bookmakers
            if isinstance(held.get(field), dict) and isinstance(raw.get(field), dict):
                held[field].update(raw[field])

    async def live_events_raw(self) -> list[dict[str, Any]]:
        """GET /events/live as sent; remembered for the snapshots' `events`."""
        body = await self._get_json("/events/live")
        return self._remembered(body if isinstance(body, list) else [])

    async def event_raw(self, event_id: int) -> dict[str, Any] | None:
        """GET /events/{id} as sent; None when the answer is not an event."""
        body = await self._get_json(f"/events/{event_id}")
        found = self._remembered([body])
        return found[0] if found else None

    def _remembered(self, items: list[Any]) -> list[dict[str, Any]]:
        events = [e for e in items if isinstance(e, dict) and isinstance(e.get("id"), int)]
        for event in events:
            self.raw_events[event["id"]] = event
        return events
