"""The trader's choice of markets shown beside the stepped one on a wide Event screen, kept in
the settings file as `event_markets = ["ML", "Totals", ...]`.

Pure code: reads and changes `Settings.event_markets`; the screen saves the settings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from oddstui.config import Settings
from oddstui.tui.event.market_panels import default_chosen

T = TypeVar("T")


def step_through(items: Sequence[T], current: T | None, step: int) -> T:
    """The item `step` places from `current` in `items`, wrapping round; from the first (or the
    last, stepping back) when `current` is not among them."""
    if current in items:
        return items[(items.index(current) + step) % len(items)]
    return items[0 if step > 0 else -1]


def chosen_markets(settings: Settings, sport: str | None) -> tuple[str, ...]:
    """The trader's markets (pinned with `p`), or the sport's main ones until the trader pins or
    unpins one."""
    if settings.event_markets is None:
        return default_chosen(sport)
    return tuple(settings.event_markets)


def toggle_market(settings: Settings, sport: str | None, market: str) -> bool:
    """Pin `market` (first among the chosen: the next beside the stepped one) or unpin it;
    True when it is pinned now."""
    chosen = list(chosen_markets(settings, sport))
    pinned = market not in chosen
    if pinned:
        chosen.insert(0, market)
    else:
        chosen.remove(market)
    settings.event_markets = chosen
    return pinned
