"""A replay's dropping odds: the service's measure (book/dropping.py) over the price histories
the replay keeps (drop_history.py), in the service's item shape."""

from __future__ import annotations

from typing import Any

from oddstui.book.dropping import drop_figures
from oddstui.replay.derived import ReplayDerived
from oddstui.replay.drop_history import BET_SIDES, line_key
from oddstui.replay.state import ReplayState
from oddstui.seed_markets import SEED_MARKETS as DROP_MARKETS
from oddstui.server.item_text import drop_item, market_reference

Json = dict[str, Any]


class ReplayDropping:
    def __init__(self, state: ReplayState, derived: ReplayDerived) -> None:
        self.state = state
        self._derived = derived  # its open events: what it keeps of ended matches goes with them

    def dropping_odds(
        self,
        *,
        sport: str | None,
        leagues: list[str],
        markets: list[str],
        window: str,
        min_drop: float,
        limit: int,
        page: int,
        details: bool,
    ) -> list[Json]:
        """GET /dropping-odds: the largest drop in `window` first, one page of `limit`. Only
        lines whose opening the recording holds are measured (`replay/drop_history.py`)."""
        now = self.state.time
        chosen: list[tuple[tuple[Any, ...], Json]] = []
        for event in self._derived.open_events():
            if sport is not None and _slug(event.get("sport")) != sport:
                continue
            if leagues and _slug(event.get("league")) not in leagues:
                continue
            for item, drops, order in self._drops(event["id"], now):
                drop = drops[window]
                if drop is None or drop <= 0 or drop < min_drop:
                    continue
                if markets and item["market"]["name"] not in markets:
                    continue
                chosen.append(((-drop, *order), item))
        chosen.sort(key=lambda row: row[0])
        start = (page - 1) * limit
        return [self._shown_named(item, details) for _, item in chosen[start : start + limit]]

    def _shown_named(self, item: Json, details: bool) -> Json:
        """A dropping-odds item's `event` names its sport and league as {name, slug}."""
        if not details:
            return item
        event = self.state.events[item["eventId"]]
        home, away = _names(event)
        named = {
            "home": home,
            "away": away,
            "date": str(event.get("date", "")),
            "sport": event.get("sport"),
            "league": event.get("league"),
        }
        return {**item, "event": named}

    def _drops(self, event_id: int, now: float) -> list[tuple[Json, dict[str, float | None], Any]]:
        """Each side of each line the reference book quotes now, with its drop figures."""
        reference = self.state.drops.reference(event_id)
        if reference is None:
            return []
        bookie, history = reference
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
                for side in BET_SIDES:
                    if side not in entry:
                        continue
                    figures = drop_figures(history.ticks(line, side), now)
                    if figures is None:
                        continue
                    updated = history.updated_at.get(name, now)
                    reference_market = market_reference(name, line[1], line[2])
                    item = drop_item(event_id, reference_market, side, figures, updated)
                    order = (event_id, name, line[1] or 0.0, line[2] or "", side)
                    found.append((item, figures.drops, order))
        return found


def _slug(value: Any) -> str:
    return str(value.get("slug", "")) if isinstance(value, dict) else ""


def _names(event: Json) -> tuple[str, str]:
    return str(event.get("home", "")), str(event.get("away", ""))
