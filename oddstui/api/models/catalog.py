"""Catalog records: sports, bookmakers, leagues, participants and the key's selection."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from oddstui.api.models.events import parse_named
from oddstui.api.models.fields import as_int, as_mapping, as_opt_int, as_opt_str, as_str, malformed


@dataclass(frozen=True, slots=True)
class Sport:
    name: str
    slug: str


@dataclass(frozen=True, slots=True)
class Bookmaker:
    name: str
    active: bool


@dataclass(frozen=True, slots=True)
class League:
    name: str
    slug: str
    events_count: int | None


@dataclass(frozen=True, slots=True)
class Participant:
    id: int
    name: str
    sport: str


@dataclass(frozen=True, slots=True)
class SelectedBookmakers:
    bookmakers: tuple[str, ...]
    count: int


def parse_sport(value: Any) -> Sport:
    named = parse_named(value, "sport")
    return Sport(named.name, named.slug)


def parse_bookmaker(value: Any) -> Bookmaker:
    raw = as_mapping(value, "bookmaker")
    active = raw.get("active", True)
    if not isinstance(active, bool):
        raise malformed("bookmaker.active is not a boolean")
    return Bookmaker(as_str(raw.get("name"), "bookmaker.name"), active)


def parse_league(value: Any) -> League:
    raw = as_mapping(value, "league")
    named = parse_named(raw, "league")
    return League(named.name, named.slug, as_opt_int(raw.get("eventsCount"), "league.eventsCount"))


def parse_participant(value: Any) -> Participant:
    raw = as_mapping(value, "participant")
    sport = raw.get("sport")
    if isinstance(sport, Mapping):
        sport = parse_named(sport, "participant.sport").slug
    return Participant(
        id=as_int(raw.get("id"), "participant.id"),
        name=as_str(raw.get("name"), "participant.name"),
        sport=as_opt_str(sport, "participant.sport") or "",
    )


def parse_selected_bookmakers(value: Any) -> SelectedBookmakers:
    raw = as_mapping(value, "selection")
    names = raw.get("bookmakers")
    if names is None:
        names = []
    if not isinstance(names, list):
        raise malformed("selection.bookmakers is not a list")
    books = tuple(as_str(name, "selection.bookmakers[]") for name in names)
    count = raw.get("count")
    return SelectedBookmakers(
        books, len(books) if count is None else as_int(count, "selection.count")
    )
