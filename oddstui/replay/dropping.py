"""A replay's dropping odds: `derived.dropping` over the price histories the replay keeps
(drop_history.py), in the service's item shape."""

from __future__ import annotations

from functools import partial
from typing import Any

from oddstui.derived.dropping import DROP_MARKETS, Drop, DropQuery, line_drops, page_of_drops
from oddstui.replay.derived import ReplayDerived
from oddstui.replay.drop_history import line_key
from oddstui.replay.state import ReplayState

Json = dict[str, Any]


class ReplayDropping:
    def __init__(self, state: ReplayState, derived: ReplayDerived) -> None:
        self.state = state
        self._derived = derived  # its open events: what it keeps of ended matches goes with them

    def dropping_odds(self, query: DropQuery) -> list[Json]:
        """GET /dropping-odds: the largest drop in the window first, one page. Only lines whose
        opening the recording holds are measured (`replay/drop_history.py`)."""
        now = self.state.time
        # Only the asked sport's and leagues' events are measured (`page_of_drops` filters too).
        events = [
            event
            for event in self._derived.open_events()
            if (query.sport is None or _slug(event.get("sport")) == query.sport)
            and (not query.leagues or _slug(event.get("league")) in query.leagues)
        ]
        drops = [drop for event in events for drop in self._drops(event, now)]
        chosen = page_of_drops(drops, query, self._kickoff)
        return [self._shown_named(drop.item, query.details) for drop in chosen]

    def _kickoff(self, event_id: int) -> str:
        return str(self.state.events[event_id].get("date", ""))  # RFC 3339: sorts as time

    def _shown_named(self, item: Json, details: bool) -> Json:
        """A dropping-odds item's `event` names its sport and league as {name, slug}."""
        if not details:
            return item
        event = self.state.events[item["eventId"]]
        named = {
            "home": str(event.get("home", "")),
            "away": str(event.get("away", "")),
            "date": str(event.get("date", "")),
            "sport": event.get("sport"),
            "league": event.get("league"),
        }
        return {**item, "event": named}

    def _drops(self, event: Json, now: float) -> list[Drop]:
        """Each side of each line the reference book quotes now, with its drop figures."""
        event_id = event["id"]
        reference = self.state.drops.reference(event_id)
        if reference is None:
            return []
        bookie, history = reference
        about = (event_id, _slug(event.get("sport")), _slug(event.get("league")))
        found = []
        for market in self.state.books.get(event_id, {}).get(bookie) or ():
            if not isinstance(market, dict) or market.get("name") not in DROP_MARKETS:
                continue
            name = market["name"]
            for entry in market.get("odds") or ():
                if not isinstance(entry, dict):
                    continue
                line = line_key(name, entry)
                if line not in history.lines:
                    continue
                updated = history.updated_at.get(name, now)
                found += line_drops(
                    about,
                    line,
                    entry,
                    partial(history.ticks, line),
                    now,
                    updated,
                )
        return found


def _slug(value: Any) -> str:
    return str(value.get("slug", "")) if isinstance(value, dict) else ""
