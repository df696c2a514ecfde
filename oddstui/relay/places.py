"""Where events are (sport, league, status), so the relay can apply the feed's filters.

Feed messages carry only an event id. The relay learns the rest from every event list and odds
record it passes through on its REST side (which the periodic catalog walk of catalog.py uses
too) and from the feed's `status` messages. An event it does not know yet reaches
only clients that do not filter by sport, league or status.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

UNKNOWN = ("", "", "")


class EventPlaces:
    def __init__(self) -> None:
        self._by_id: dict[int, tuple[str, str, str]] = {}

    def __len__(self) -> int:
        return len(self._by_id)

    def where(self, event_id: int) -> tuple[str, str, str]:
        return self._by_id.get(event_id, UNKNOWN)

    def set_status(self, event_id: int, status: str) -> None:
        known = self._by_id.get(event_id)
        if known is not None:
            self._by_id[event_id] = (known[0], known[1], status)
        else:
            self._by_id[event_id] = ("", "", status)

    def learn(self, item: Any) -> None:
        """An Event or odds record of a REST body (a dict); anything else is ignored."""
        if not isinstance(item, dict):
            return
        event_id = item.get("id")
        sport = item.get("sport")
        league = item.get("league")
        if not isinstance(event_id, int | str) or not isinstance(sport, dict):
            return
        try:
            number = int(event_id)
        except ValueError:
            return
        league_slug = league.get("slug") if isinstance(league, dict) else None
        status = item.get("status")
        self._by_id[number] = (
            str(sport.get("slug") or "").casefold(),
            str(league_slug or "").casefold(),
            status if isinstance(status, str) else self.where(number)[2],
        )

    def learn_all(self, body: Any) -> None:
        """A REST body: one Event or record, or a list of them."""
        items: Iterable[Any] = body if isinstance(body, list) else (body,)
        for item in items:
            self.learn(item)
