"""The columns of the event tables (Events, Live, Watchlist) and one row's cells and sort values.

Priorities say what a trader needs first: at 80 columns each table keeps the event, its score
and clock, then the league, then the period scores; the rest appear as the terminal widens,
and a wide terminal widens the names.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from oddstui.tui.desk.state import LIVE, EventView
from oddstui.tui.kit import event_fields
from oddstui.tui.kit.columns import Column
from oddstui.tui.text import plain

STAR = Column("star", "★", 1)
EVENT = Column("event", "Event", 22, grow=22)
SCORE = Column("score", "Score", 7)
CLOCK = Column("clock", "Clock", 8)
START = Column("start", "Start", 12)
LEAGUE = Column("league", "League", 14, priority=1, grow=16)
PERIODS = Column("periods", "Periods", 14, priority=2, grow=22)
DETAIL = Column("detail", "Period", 11, priority=3, grow=6)  # `Top 1st inning`
STATUS = Column("status", "Status", 8, priority=3)
SPORT = Column("sport", "Sport", 10, priority=4, grow=8)
BOOKS = Column("books", "Books", 5, priority=5)

LIVE_COLUMNS = [STAR, EVENT, SCORE, CLOCK, DETAIL, PERIODS, LEAGUE, SPORT, BOOKS]
WATCHLIST_COLUMNS = [EVENT, START, STATUS, SCORE, CLOCK, DETAIL, PERIODS, LEAGUE, SPORT, BOOKS]
#: The events of one league: its name would repeat on every row.
LEAGUE_EVENTS_COLUMNS = [STAR, START, EVENT, STATUS, SCORE, CLOCK, PERIODS, BOOKS]
#: The events of every league of a sport.
SPORT_EVENTS_COLUMNS = [STAR, START, EVENT, STATUS, SCORE, CLOCK, LEAGUE, PERIODS, BOOKS]


def event_cells(event: EventView, now: float, *, watched: bool, trusted: bool) -> dict[str, Text]:
    """Every column's cell for `event` (a table shows the ones it declared)."""
    return {
        "star": event_fields.star_text(watched),
        "sport": plain(event.sport_name),
        "event": event_fields.event_text(event),
        "start": event_fields.start_text(event),
        "status": event_fields.status_text(event),
        "score": event_fields.score_with_cards(event, trusted),
        "clock": event_fields.clock_text(event, now),
        "detail": event_fields.detail_text(event),
        "periods": event_fields.periods_text(event),
        "books": event_fields.books_text(event),
        "league": plain(event.league_name),
    }


def event_sort_values(event: EventView, now: float) -> dict[str, Any]:
    """What the columns whose text does not sort well sort by (None: no value, sorts last)."""
    score = (
        None
        if event.score_home is None or event.score_away is None or event.status == "pending"
        else (event.score_home + event.score_away, event.score_home)
    )
    clock = event.clock.played_at(now) if event.status == LIVE and event.clock else None
    return {
        "start": event.start.timestamp() if event.start else None,
        "score": score,
        "clock": clock,
        "books": event.bookmaker_count,
        "status": (event.status != LIVE, event.status),
    }
