"""When each book sees a move of the true prices: after the delay drawn for it, not before.

`PriceMaking._follow` draws a book's delay for each move (its latency); the markets the move
changed stay unseen by the book until then. A follow-up reprices a market only once the book
has seen a change of it (the earliest one it has not repriced yet), so a follow-up due for one
move never brings in another market's later move early, and a nudge of a price (`_jitter`)
leaves a market that is behind a move alone. A market that moves again before the book has
seen the second move is repriced as of the first (the quoter keeps the true prices' recent
versions, `Quoter.keep`), and stays behind the second until the book sees it. Each move's lag is
then the delay drawn for it, which is what `oddstui serve --truth` says.
"""

from __future__ import annotations

from collections.abc import Iterable

from oddstui.service.world.state import WorldState

Pair = tuple[int, str]  # (event, book)


class BookSight(WorldState):
    _unseen: dict[Pair, dict[int, tuple[float, tuple[str, ...]]]]
    """(event, book) -> truth version -> (when the book sees it, the markets it changed)."""
    _ripe: dict[Pair, set[str]]
    """(event, book) -> markets with a change the book has seen and not repriced yet."""

    def _will_see(self, event_id: int, bookie: str, version: int, at: float,
                  markets: tuple[str, ...]) -> None:
        unseen = self._unseen.setdefault((event_id, bookie), {})
        was = unseen.get(version)
        if was is None or at < was[0]:
            unseen[version] = (at, markets)

    def _hidden(self, event_id: int, bookie: str, now: float) -> set[str]:
        """The markets whose changes the book has not seen by `now` (and none it has seen)."""
        key = (event_id, bookie)
        unseen = self._unseen.get(key)
        if not unseen:
            return set()
        ripe = self._ripe.get(key)
        hidden: set[str] = set()
        for version, (at, markets) in list(unseen.items()):
            if at <= now:
                del unseen[version]
                if ripe is None:
                    ripe = self._ripe[key] = set()
                ripe.update(markets)
            else:
                hidden.update(markets)
        if not unseen:
            del self._unseen[key]
        return hidden - ripe if ripe else hidden

    def _seen_as_of(self, event_id: int, bookie: str, markets: Iterable[str]) -> dict[str, int]:
        """For each of these markets with a change the book has not seen yet: the version just
        before the earliest such change (what the book knows of the market). Call after
        `_hidden`, which forgets the changes seen by now."""
        unseen = self._unseen.get((event_id, bookie))
        if not unseen:
            return {}
        wanted = set(markets)
        cut: dict[str, int] = {}
        for version, (_, moved) in unseen.items():
            for name in moved:
                if name in wanted and version - 1 < cut.get(name, version):
                    cut[name] = version - 1
        return cut

    def _repriced(self, event_id: int, bookie: str, markets: Iterable[str]) -> None:
        ripe = self._ripe.get((event_id, bookie))
        if ripe:
            ripe.difference_update(markets)

    def _next_sight(self, event_id: int, bookie: str) -> float | None:
        unseen = self._unseen.get((event_id, bookie))
        return min(at for at, _ in unseen.values()) if unseen else None

    def _sees_all(self, event_id: int, bookie: str) -> None:
        self._unseen.pop((event_id, bookie), None)
        self._ripe.pop((event_id, bookie), None)
