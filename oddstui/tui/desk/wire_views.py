"""Wire models (`oddstui.api.models`) turned into what the screens show (`desk.state`)."""

from __future__ import annotations

from oddstui.api import models
from oddstui.tui.desk.clocks import ClockReading
from oddstui.tui.desk.state import EventView, LeagueView, SportView


def clock_reading(clock: models.Clock | None, arrived_at: float) -> ClockReading | None:
    if clock is None:
        return None
    return ClockReading(
        minute=clock.minute,
        played_seconds=clock.played_seconds,
        period=clock.period,
        running=clock.running,
        status_detail=clock.status_detail,
        injury_time=clock.injury_time,
        arrived_at=arrived_at,
        serve=clock.serve,
    )


def event_view(event: models.Event, arrived_at: float) -> EventView:
    scores = event.scores
    return EventView(
        id=event.id,
        sport_slug=event.sport.slug,
        sport_name=event.sport.name,
        league_slug=event.league.slug,
        league_name=event.league.name,
        home=event.home,
        away=event.away,
        start=event.date,
        status=event.status,
        score_home=scores.home,
        score_away=scores.away,
        periods=dict(scores.periods),
        clock=clock_reading(event.clock, arrived_at),
        bookmaker_count=event.bookmaker_count,
        home_id=event.home_id,
        away_id=event.away_id,
        red_cards=scores.red_cards,
    )


def sport_view(sport: models.Sport) -> SportView:
    return SportView(slug=sport.slug, name=sport.name)


def league_view(league: models.League, sport: str) -> LeagueView:
    return LeagueView(slug=league.slug, name=league.name, sport=sport, events=league.events_count)
