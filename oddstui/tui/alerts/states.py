"""A starred event as the book's alert rules read it (`MatchState`), built from what the desk
knows: the board's event view and what the feed's book held at the last check. No textual."""

from __future__ import annotations

from collections.abc import Mapping

from oddstui.book.alert_rules import ArbLeg, LineKey, MatchState, PriceKey, Trail, at_halftime
from oddstui.tui.desk.state import EventView

Arbs = dict[tuple[str, LineKey], tuple[float, tuple[ArbLeg, ...]]]


def match_state(
    event: EventView,
    at: float,
    *,
    trusted: bool,
    arbitrages: Arbs | None = None,
    trails: Mapping[PriceKey, Trail] | None = None,
) -> MatchState:
    """The event now; its score only when `trusted` and fresh (not after a reconnect)."""
    score = None
    if event.score_home is not None and event.score_away is not None:
        score = (event.score_home, event.score_away)
    if not (trusted and event.score_fresh):
        score = None
    clock = event.clock
    return MatchState(
        event_id=event.id,
        title=event.title,
        at=at,
        status=event.status,
        sport=event.sport_slug,
        score=score,
        periods=dict(event.periods),
        halftime=clock is not None and at_halftime(clock.running, clock.status_detail),
        red_cards=event.red_cards if score is not None else None,
        trails=dict(trails or {}),
        arbitrages=dict(arbitrages or {}),
    )


def update_arbs(
    held: Arbs, changed_markets: set[str], found: list[tuple[str, LineKey, float, list[ArbLeg]]]
) -> Arbs:
    """The event's arbitrages after a check: those of the changed markets are what was found
    now; the others stand as they were."""
    kept = {key: value for key, value in held.items() if key[0] not in changed_markets}
    for market, line, profit, legs in found:
        kept[(market, line)] = (profit, tuple(legs))
    return kept
