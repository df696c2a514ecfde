"""The trader's choice of markets shown beside the stepped one on a wide Event screen, kept in
the settings file as `event_markets = ["ML", "Totals", ...]` (a list of market names).

Pure code: reads and changes `Settings.extra`; the screen saves the settings.
"""

from __future__ import annotations

from oddstui.config import Settings
from oddstui.tui.event.market_panels import default_chosen

KEY = "event_markets"


def chosen_markets(settings: Settings, sport: str | None) -> tuple[str, ...]:
    """The trader's markets (pinned with `p`), or the sport's main ones until the trader pins or
    unpins one (a value that is not a list of names counts as no choice)."""
    value = settings.extra.get(KEY)
    if isinstance(value, list) and all(isinstance(name, str) for name in value):
        return tuple(value)
    return default_chosen(sport)


def toggle_market(settings: Settings, sport: str | None, market: str) -> bool:
    """Pin `market` (last among the chosen) or unpin it; True when it is pinned now."""
    chosen = list(chosen_markets(settings, sport))
    pinned = market not in chosen
    if pinned:
        chosen.append(market)
    else:
        chosen.remove(market)
    settings.extra[KEY] = chosen
    return pinned
