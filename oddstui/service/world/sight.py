"""When each book sees a move of the true prices: after the delay drawn for it, not before.

`PriceMaking._follow` draws a book's delay for each move (its latency); the move's version of the
true prices is unseen by the book until then. A follow-up reprices only the markets whose latest
change the book has seen, so a follow-up due for an earlier move never brings in a later move
early (nor does a nudge of a price: `_jitter` leaves a market that is behind alone). Each move's
lag is then the delay drawn for it, which is what `oddstui serve --truth` says.
"""

from __future__ import annotations

from oddstui.service.world.state import WorldState


class BookSight(WorldState):
    _unseen: dict[tuple[int, str], dict[int, float]]  # (event, book) -> truth version -> seen at

    def _will_see(self, event_id: int, bookie: str, version: int, at: float) -> None:
        unseen = self._unseen.setdefault((event_id, bookie), {})
        if at < unseen.get(version, at + 1.0):
            unseen[version] = at

    def _hidden(self, event_id: int, bookie: str, now: float) -> set[int]:
        """The versions of the true prices the book has not seen by `now` (the rest are
        forgotten: seen)."""
        key = (event_id, bookie)
        unseen = self._unseen.get(key)
        if not unseen:
            return set()
        hidden = {version for version, at in unseen.items() if at > now}
        if not hidden:
            del self._unseen[key]
        elif len(hidden) < len(unseen):
            self._unseen[key] = {version: unseen[version] for version in hidden}
        return hidden

    def _next_sight(self, event_id: int, bookie: str) -> float | None:
        unseen = self._unseen.get((event_id, bookie))
        return min(unseen.values()) if unseen else None

    def _sees_all(self, event_id: int, bookie: str) -> None:
        self._unseen.pop((event_id, bookie), None)
