"""Lookups shared by the routes: ids to records, names to bookmakers, with 400/404 on failure."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

from oddstui.book.clean_text import fold as fold_text
from oddstui.server.errors import BadRequest, NotFound
from oddstui.server.params import shown
from oddstui.service.world.model import Event, League, Sport

if TYPE_CHECKING:
    from oddstui.service.world import World

ACTIVE_STATUSES = ("pending", "live")
HISTORICAL_STATUSES = ("settled", "cancelled")


def event_or_404(world: World, event_id: int, name: str = "eventId") -> Event:
    event = world.event_laid_out(event_id)
    if event is None:
        raise NotFound(f"{name}: no event with id {event_id}")
    return event


def sport_or_400(world: World, slug: str, name: str = "sport") -> Sport:
    sport = world.sports.get(slug) or world.sports.get(slug.lower())
    if sport is None:
        raise BadRequest(f"{name}: unknown sport slug {shown(slug)}; see GET /sports")
    return sport


def sport_by_slug_or_name(world: World, text: str, name: str = "sport") -> Sport:
    """A sport given as a slug or a display name, case-insensitively."""
    wanted = text.strip().lower()
    for sport in world.sports.values():
        if wanted in (sport.slug.lower(), sport.name.lower()):
            return sport
    raise BadRequest(f"{name}: unknown sport {shown(text)}; use a slug or name from GET /sports")


def league_or_400(world: World, slug: str, sport: Sport | None, name: str = "league") -> League:
    league = world.leagues.get(slug) or world.leagues.get(slug.lower())
    if league is None:
        raise BadRequest(f"{name}: unknown league slug {shown(slug)}; see GET /leagues")
    if sport is not None and league.sport != sport.slug:
        raise BadRequest(f"{name}: league {shown(slug)} is not in sport {shown(sport.slug)}")
    return league


def bookmakers_or_400(world: World, names: Iterable[str], name: str = "bookmakers") -> list[str]:
    """Check names are bookmakers (case-sensitive display names, as on the wire)."""
    names = list(names)
    unknown = [n for n in names if n not in world.bookmakers]
    if unknown:
        listed = ", ".join(shown(n) for n in unknown[:5])
        raise BadRequest(
            f"{name}: unknown bookmaker{'s' if len(unknown) > 1 else ''} {listed}; "
            "names are case-sensitive, see GET /bookmakers"
        )
    return names


@lru_cache(maxsize=65536)
def fold(text: str) -> str:
    """Text for matching (`book.clean_text.fold`, the desk's find's too), cached."""
    return fold_text(text)
