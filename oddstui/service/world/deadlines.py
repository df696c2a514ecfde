"""A book that cannot follow a move in time takes the market down until it has repriced it.

Books follow the true prices after their latency, paced by the update budget. A real book
suspends a market it cannot price at once, and so does every book here (the sharp ones too:
they follow first, but a score moves a hundred markets, repriced a few at a time):
- at the move, each of its markets whose standing price would now be more than `WITHDRAW_EDGE`
  over the true price (a score, a steamer; `Quoter.overpriced`): no price ever offers more,
  which is the bound the boards state (docs/desk.md), the same as a soft book's largest
  deliberate misprice. Nor does a book put such a market back on prices from before the move
  it has not seen yet, nor a white label copy them;
- after it, a market still behind the move `IN_PLAY_FOLLOW` simulated seconds later (in play;
  `PRE_MATCH_FOLLOW` before): when the budget runs short, a follow-up can wait far longer than
  any book would leave a price up.
A withdrawn market comes back when the book requotes it. So a mispricing after a score lasts
seconds, and no quote stands for minutes against a moved market.
"""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING

from oddstui.service.world.model import LIVE, PENDING, Bookmaker, Event
from oddstui.service.world.state import WorldState

#: Simulated seconds a book's market may stay behind a move before it is taken down.
IN_PLAY_FOLLOW, PRE_MATCH_FOLLOW = 8.0, 150.0


class FollowDeadlines(WorldState):
    _follow_by: list[tuple[float, int, str, int]]  # heap of (deadline, event, book, version)
    _follow_armed: set[tuple[int, str]]  # (event, book) pairs with a deadline in the heap
    _prematch_keep: float  # the step's budget kept for pre-match work (set by `step`)

    if TYPE_CHECKING:

        def _copied(self, event_id: int, parent: Bookmaker, now: float) -> None: ...

    def _follow_deadline(self, event_id: int, book: Bookmaker, now: float) -> None:
        """The book is to follow the event's current move by a deadline, or withdraw. One
        deadline a pair at a time: moves after it are checked when it is re-armed."""
        key = (event_id, book.name)
        truth = self._quoter.truths.get(event_id)
        if truth is None or key in self._follow_armed:
            return
        self._arm(event_id, book.name, truth.version, now)

    def _arm(self, event_id: int, bookie: str, version: int, now: float) -> None:
        within = IN_PLAY_FOLLOW if event_id in self._live else PRE_MATCH_FOLLOW
        self._follow_armed.add((event_id, bookie))
        heapq.heappush(self._follow_by, (now + within, event_id, bookie, version))

    def _withdraw_unfollowed(self, now: float) -> None:
        """Take down each market a book has not followed by its deadline."""
        heap = self._follow_by
        while heap and heap[0][0] <= now and self._budget >= 1:
            if not self._can_withdraw(heap[0][1]):
                break
            _, event_id, bookie, version = heapq.heappop(heap)
            self._follow_armed.discard((event_id, bookie))
            event = self.events.get(event_id)
            truth = self._quoter.truths.get(event_id)
            if event is None or truth is None or event.status not in (PENDING, LIVE):
                continue
            quotes = event.quotes.get(bookie)
            if not quotes:
                continue
            changed = truth.changed_at
            behind, later = [], False
            for name, market in quotes.items():
                if changed.get(name, 0) > market.version:
                    if market.version < version:
                        behind.append(name)
                    else:
                        later = True  # moved after this deadline was set: a deadline of its own
            if later:
                self._arm(event_id, bookie, truth.version, now)
            if behind:
                self._withdraw(event_id, bookie, behind)

    def _withdraw_overpriced(self, event: Event, book: Bookmaker) -> None:
        """After a move: take down the book's markets the move changed whose prices would now
        stand more than WITHDRAW_EDGE over the true price, or whose lines are gone."""
        truth = self._quoter.truths.get(event.id)
        quotes = event.quotes.get(book.name)
        if truth is None or not quotes or not self._can_withdraw(event.id):
            return  # out of budget: the deadline takes it down
        changed, version = truth.changed_at, truth.version
        defs = self._quoter.defs(event)
        # Only the markets this move changed: the others were looked at when they moved.
        down = [name for name, market in quotes.items()
                if changed.get(name, 0) == version and market.version < version
                and self._quoter.overpriced(event, defs[name], market.lines)]
        if down:
            self._withdraw(event.id, book.name, down)

    def _withdraw_behind(self, event: Event, bookie: str) -> None:
        """Take down every market of the book still behind the true prices (a book back from a
        suspension reopens only what it has repriced)."""
        truth = self._quoter.truths.get(event.id)
        quotes = event.quotes.get(bookie)
        if truth is None or not quotes:
            return
        changed = truth.changed_at
        behind = [name for name, m in quotes.items() if changed.get(name, 0) > m.version]
        if behind:
            self._withdraw(event.id, bookie, behind)

    def _can_withdraw(self, event_id: int) -> bool:
        """In-play withdrawals leave the step's pre-match share of the budget alone."""
        return self._budget >= 1 + (self._prematch_keep if event_id in self._live else 0.0)

    def _withdraw(self, event_id: int, bookie: str, names: list[str]) -> None:
        """Take these markets down: one message, paid from the update budget."""
        if (event_id, bookie) not in self._changed:
            self._budget -= 1
        quotes = self.events[event_id].quotes[bookie]
        withdrawn = self._quoter.withdrawn.setdefault(event_id, {})
        for name in names:
            # Withdrawn at the version it was priced at: still behind, so it is requoted.
            withdrawn[(bookie, name)] = quotes.pop(name).version
        self._touch(event_id, bookie)
        # Its white labels copy the withdrawal after their small delay, as they copy a price.
        self._copied(event_id, self.bookmakers[bookie], self._sim)
