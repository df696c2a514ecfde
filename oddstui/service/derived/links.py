"""Per-(event, bookmaker) links and fixture ids, and the short event details of derived items."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from oddstui.service.world.model import Event, iso

if TYPE_CHECKING:
    from oddstui.service.world import World

NO_URL = "N/A"


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


def direct_link(href: str, market: str, hdp: float | None, label: str | None, side: str) -> str:
    """A bet-slip link under the event page: the page plus the selection as a fragment."""
    if href == NO_URL:
        return NO_URL
    parts = [market, "" if hdp is None else f"{hdp:g}", label or "", side]
    return f"{href}#bet={quote('/'.join(parts), safe='')}"


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


def side_label(event: Event, market: str, side: str, hdp: float | None, label: str | None) -> str:
    """What a side means in words: a team, Draw, Over 2.5, Yes..."""
    if side == "home":
        text = event.home.name
    elif side == "away":
        text = event.away.name
    else:
        text = side.capitalize()
    if hdp is not None:
        shown = (
            f"{hdp:+g}" if side in ("home", "away") and "spread" in market.lower() else f"{hdp:g}"
        )
        if side == "away" and "spread" in market.lower():
            shown = f"{-hdp:+g}"
        text = f"{text} {shown}"
    return f"{label} {text}" if label else text
