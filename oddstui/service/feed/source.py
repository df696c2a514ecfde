"""The feed's read-only view of the world: journal entries as `OddsChange`, markets, links.

Everything the feed needs from `oddstui.service.world` goes through here, so the rest of the
feed depends on this small surface only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from oddstui.server.feed.fanout import TickCache
from oddstui.service.world.model import Event, Market, iso

if TYPE_CHECKING:
    from oddstui.service.world import World


class OddsChange(NamedTuple):
    """One journal entry: the (event, bookie) pair that changed at `seq`."""

    seq: int
    kind: str  # created, updated, deleted or no_markets
    event_id: int
    bookie: str
    timestamp: str  # ISO-8601, simulated time of the change


class WorldView:
    def __init__(self, world: World) -> None:
        self.world = world

    @property
    def seq(self) -> int:
        return int(self.world.journal.seq)

    def now_iso(self) -> str:
        return iso(self.world.now())

    def event(self, event_id: int) -> Event | None:
        return self.world.events.get(event_id)

    def where(self, event_id: int) -> tuple[str, str, str] | None:
        """The event's sport, league and status for the filters; None once it is gone."""
        event = self.world.events.get(event_id)
        return None if event is None else (event.sport.slug, event.league.slug, event.status)

    def renderer(self) -> TickCache:
        return TickCache(self)

    def changes(self, entries: Any) -> list[OddsChange]:
        return [self._change(entry) for entry in entries]

    def replay_since(self, last_seq: int) -> list[OddsChange] | None:
        entries = self.world.journal.replay_since(last_seq)
        return None if entries is None else self.changes(entries)

    def _change(self, entry: Any) -> OddsChange:
        return OddsChange(
            seq=entry.seq,
            kind=entry.kind,
            event_id=entry.event_id,
            bookie=entry.bookie,
            timestamp=iso(entry.ts),
        )

    def url(self, event_id: int, bookie: str) -> str:
        return str(self.world.deep_link(self.world.events[event_id], bookie))

    def markets(self, event_id: int, bookie: str) -> list[Market]:
        """The bookie's current markets of the event, in the order of `world.markets_wire`.

        Only for created/updated entries, which the world writes when the pair is quoted and
        not suspended. Market objects rather than `markets_wire`, so that only the markets a
        filter wants are ever turned into wire dicts: the full list of a football book costs
        ~0.3 ms, which at thousands of messages a second slows the world's step. Through
        `book_markets`, because a far-off event keeps its quotes put away until asked.
        """
        event = self.world.events.get(event_id)
        if event is None:
            return []
        return self.world.book_markets(event, bookie)

    def market_wire(self, market: Market, bookie: str) -> dict[str, Any]:
        """One market exactly as in GET /odds (the book's own decimal precision)."""
        return market.to_wire(self.world.bookmakers[bookie].precision)
