"""Which sports have a draw: a two-way moneyline there is not an exhaustive set of outcomes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oddstui.book.arbitrage import sport_has_draw

if TYPE_CHECKING:
    from oddstui.service.world import World

SAMPLE = 50  # quoted events looked at per sport


class DrawingSports:
    def __init__(self, world: World) -> None:
        self.world = world
        self._known: dict[str, bool] = {}

    def has_draw(self, sport: str) -> bool:
        known = self._known.get(sport)
        if known is None:
            known = self._known[sport] = self._look(sport)
        return known

    def _look(self, sport: str) -> bool:
        # The desk's rule first (book/arbitrage.py): where a draw can settle a two-way price as
        # a loser at many books, the service lists no two-way arbitrage either.
        if sport_has_draw(sport):
            return True
        explicit = getattr(self.world.sports.get(sport), "has_draw", None)
        if isinstance(explicit, bool):
            return explicit
        seen = 0
        for event in self.world.events.values():
            if event.sport.slug != sport or not event.quotes:
                continue
            seen += 1
            for markets in event.quotes.values():
                ml = markets.get("ML")
                if ml is not None and any("draw" in line.prices for line in ml.lines):
                    return True
            if seen >= SAMPLE:
                break
        return False
