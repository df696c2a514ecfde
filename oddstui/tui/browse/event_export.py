"""The event tables' export (Live, Events, Watchlist): one record per event listed, as data
(columns in the README). No textual here."""

from __future__ import annotations

from typing import Any

from oddstui.tui.desk.state import EventView


def event_table_record(event: EventView, now: float, *, watched: bool) -> dict[str, Any]:
    clock = event.clock
    return {
        "eventId": event.id,
        "sport": event.sport_name,
        "league": event.league_name,
        "event": event.title,
        "home": event.home,
        "away": event.away,
        "startsAt": None if event.start is None else event.start.timestamp(),
        "status": event.status,
        "scoreHome": event.score_home,
        "scoreAway": event.score_away,
        "redCardsHome": None if event.red_cards is None else event.red_cards[0],
        "redCardsAway": None if event.red_cards is None else event.red_cards[1],
        "period": None if clock is None else clock.period,
        "playedSeconds": None if clock is None else clock.played_at(now),
        "bookmakers": event.bookmaker_count,
        "starred": watched,
    }
