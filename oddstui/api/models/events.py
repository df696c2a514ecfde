"""Event records: teams and leagues by name, scores, the live clock, the event itself."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from oddstui.api.errors import MalformedRecord
from oddstui.api.models.fields import (
    as_int,
    as_mapping,
    as_opt_int,
    as_opt_str,
    as_str,
    malformed,
    parse_time,
)

_NON_ALNUM = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True, slots=True)
class Named:
    """A sport or league reference: `{name, slug}`."""

    name: str
    slug: str


@dataclass(frozen=True, slots=True)
class Scores:
    """Top-level totals (overtime/penalty rules of the seed) and per-period `(home, away)`."""

    home: int
    away: int
    periods: dict[str, tuple[int, int]]
    red_cards: tuple[int, int] | None = None
    """Red cards shown (home, away): the built-in service's `redCards` (ours), else None."""


EMPTY_SCORES = Scores(0, 0, {})


@dataclass(frozen=True, slots=True)
class Clock:
    """A live match clock as last received; UIs derive the running time from it."""

    minute: int
    played_seconds: int
    period: int
    running: bool
    status_detail: str
    injury_time: int
    serve: str | None


@dataclass(frozen=True, slots=True)
class Event:
    id: int
    home: str
    away: str
    home_id: int | None
    away_id: int | None
    date: datetime
    status: str
    sport: Named
    league: Named
    scores: Scores
    clock: Clock | None
    bookmaker_count: int | None


def slugify(name: str) -> str:
    """`"England - Premier League"` -> `"england-premier-league"`, the service's slug style."""
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return "-".join(_NON_ALNUM.split(folded)).strip("-")


def parse_named(value: Any, what: str = "reference") -> Named:
    """`{name, slug}`; a bare display name (derived feeds send one) gets a slug made from it."""
    if isinstance(value, str):
        return Named(value, slugify(value))
    raw = as_mapping(value, what)
    name = raw.get("name")
    slug = raw.get("slug")
    if name is None and slug is None:
        raise malformed(f"{what} has no name or slug")
    name_text = as_str(name if name is not None else slug, f"{what}.name")
    slug_text = as_str(slug if slug is not None else name, f"{what}.slug")
    return Named(name_text, slug_text)


def parse_scores(value: Any) -> Scores:
    """Scores; `null` means none yet. The old `fulltime` key is read as `ft`."""
    if value is None:
        return EMPTY_SCORES
    raw = as_mapping(value, "scores")
    home = raw.get("home")
    away = raw.get("away")
    periods: dict[str, tuple[int, int]] = {}
    raw_periods = raw.get("periods")
    if raw_periods is not None:
        for key, pair in as_mapping(raw_periods, "scores.periods").items():
            if not isinstance(key, str) or not isinstance(pair, Mapping):
                raise malformed("scores.periods entry is not an object")
            if key == "fulltime":
                if "ft" in raw_periods:
                    continue
                key = "ft"
            try:
                periods[key] = (
                    as_int(pair.get("home") or 0, f"scores.periods.{key}.home"),
                    as_int(pair.get("away") or 0, f"scores.periods.{key}.away"),
                )
            except MalformedRecord:
                continue  # e.g. a tennis "AD" point: drop the one period, keep the match
    return Scores(
        0 if home is None else as_int(home, "scores.home"),
        0 if away is None else as_int(away, "scores.away"),
        periods,
        _red_cards(raw.get("redCards")),
    )


def _red_cards(value: Any) -> tuple[int, int] | None:
    """`redCards` {home, away}; anything malformed reads as not carried (the score stands)."""
    if not isinstance(value, Mapping):
        return None
    try:
        home, away = as_int(value.get("home"), "home"), as_int(value.get("away"), "away")
    except MalformedRecord:
        return None
    return (home, away) if home >= 0 and away >= 0 else None


def parse_clock(value: Any) -> Clock | None:
    if value is None:
        return None
    raw = as_mapping(value, "clock")
    running = raw.get("running", False)
    if not isinstance(running, bool):
        raise malformed("clock.running is not a boolean")
    serve = raw.get("serve")
    return Clock(
        minute=as_int(raw.get("minute") or 0, "clock.minute"),
        played_seconds=as_int(raw.get("playedSeconds") or 0, "clock.playedSeconds"),
        period=as_int(raw.get("period") or 0, "clock.period"),
        running=running,
        status_detail=as_opt_str(raw.get("statusDetail"), "clock.statusDetail") or "",
        injury_time=as_int(raw.get("injuryTime") or 0, "clock.injuryTime"),
        serve=None if serve is None else str(serve),
    )


def parse_event(value: Any) -> Event:
    """An Event (GET /events, /events/{id}, /events/live, /events/search) or the event part of
    an odds record."""
    raw = as_mapping(value, "event")
    try:
        event_id = raw["id"]
        home = raw["home"]
        away = raw["away"]
        date = raw["date"]
    except KeyError as missing:
        raise malformed(f"event has no {missing.args[0]}") from None
    return Event(
        id=as_int(event_id, "event.id"),
        home=as_str(home, "event.home"),
        away=as_str(away, "event.away"),
        home_id=as_opt_int(raw.get("homeId"), "event.homeId"),
        away_id=as_opt_int(raw.get("awayId"), "event.awayId"),
        date=parse_time(date, "event.date"),
        status=as_str(raw.get("status", ""), "event.status"),
        sport=parse_named(raw.get("sport"), "event.sport"),
        league=parse_named(raw.get("league"), "event.league"),
        scores=parse_scores(raw.get("scores")),
        clock=parse_clock(raw.get("clock")),
        bookmaker_count=as_opt_int(raw.get("bookmakerCount"), "event.bookmakerCount"),
    )
