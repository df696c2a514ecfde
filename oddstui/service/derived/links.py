"""Per-(event, bookmaker) links and fixture ids, and the short event details of derived items."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from oddstui.server.item_text import NO_URL
from oddstui.service.world.model import Event, iso

if TYPE_CHECKING:
    from oddstui.service.world import World


def event_url(world: World, event: Event, bookie: str) -> str:
    try:
        url = world.bookie_url(event, bookie)
    except (AttributeError, KeyError):
        return NO_URL
    return str(url) if url else NO_URL


def fixture_id(world: World, event: Event, bookie: str) -> str:
    try:
        return str(world.bookie_fixture_id(event, bookie))
    except (AttributeError, KeyError):
        return str(event.id)


def summary_strings(event: Event) -> dict[str, str]:
    """The `event` object of value bets and arbitrage items: all strings."""
    return {
        "home": event.home.name,
        "away": event.away.name,
        "date": iso(event.start),
        "sport": event.sport.name,
        "league": event.league.name,
    }


def summary_named(event: Event) -> dict[str, Any]:
    """The `event` object of dropping-odds items: sport and league as {name, slug}."""
    return {
        "home": event.home.name,
        "away": event.away.name,
        "date": iso(event.start),
        "sport": event.sport.to_wire(),
        "league": event.league.to_wire(),
    }
