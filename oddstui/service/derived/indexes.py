"""All derived indexes together, registered as one listener of the world."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from oddstui.service.derived.arbitrage import ArbitrageIndex
from oddstui.service.derived.dropping import DroppingIndex
from oddstui.service.derived.odds_json import OddsEncoder
from oddstui.service.derived.sports import DrawingSports
from oddstui.service.derived.updated import UpdatedIndex
from oddstui.service.derived.value import ValueIndex

if TYPE_CHECKING:
    from oddstui.service.world import World

DRAIN_INTERVAL = 0.02  # seconds between upkeep slices
DRAIN_BUDGET = 0.005  # seconds of work per slice at most
log = logging.getLogger("oddstui.service")


@dataclass
class Indexes:
    updated: UpdatedIndex
    arbitrage: ArbitrageIndex
    value: ValueIndex
    dropping: DroppingIndex
    odds: OddsEncoder

    @classmethod
    def attach(cls, world: World) -> Indexes:
        draws = DrawingSports(world)
        indexes = cls(
            updated=UpdatedIndex(),
            arbitrage=ArbitrageIndex(world, draws),
            value=ValueIndex(world, draws),
            dropping=DroppingIndex(world),
            odds=OddsEncoder(world),
        )
        world.add_listener(indexes)
        return indexes

    async def run(self) -> None:
        """Background upkeep on the service's loop, between world steps and requests."""
        while True:
            await asyncio.sleep(DRAIN_INTERVAL)
            try:
                self.arbitrage.drain(DRAIN_BUDGET)
            except Exception:  # upkeep must go on; requests recompute what they need
                log.exception("arbitrage upkeep failed")

    # -- the world's listener interface; called at the end of each step, so keep it cheap
    def on_odds(self, entries: Any) -> None:
        entries = list(entries)
        self.updated.on_entries(entries)
        self.arbitrage.on_entries(entries)
        self.value.on_entries(entries)
        self.dropping.on_entries(entries)

    def on_score(self, event: Any) -> None:
        pass

    def on_status(self, event: Any) -> None:
        self.arbitrage.on_event(event)
        self.value.on_event(event)
        self.dropping.on_event(event)
