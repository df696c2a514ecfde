"""What the engine counts for each bookmaker, and the co-moves that reveal sister books."""

from __future__ import annotations

from collections import Counter, deque


class BookTally:
    __slots__ = ("updates", "markets", "margins", "early_follows", "live_follows", "stale",
                 "led", "joined")

    def __init__(self) -> None:
        self.updates = 0
        self.markets: set[object] = set()
        """(event, market) pairs the book quoted."""
        self.margins: dict[int, int] = {}
        """A histogram of its lines' margins in tenths of a percent (a median in constant
        memory however long the run). A plain dict: a Counter's `+=` is not specialised by
        Python 3.11 and costs three times a dict's, once a change."""
        self.early_follows: list[tuple[float, bool]] = []
        self.live_follows: list[tuple[float, bool]] = []
        """(seconds, followed) per sharp move it quoted before kick-off, and per move in play;
        False: censored at that time."""
        self.stale: list[tuple[float, bool]] = []
        """(seconds, ended) per stale line of its; False: still stale when watching stopped."""
        self.led = 0
        self.joined = 0
        """Episodes it moved in (with another book), and of those the ones it moved first in."""

    @property
    def follows(self) -> list[tuple[float, bool]]:
        """Every sharp move's (seconds, followed), before kick-off and in play."""
        return self.early_follows + self.live_follows

    def margin_median(self) -> float | None:
        total = sum(self.margins.values())
        if not total:
            return None
        seen = 0
        for tenth in sorted(self.margins):
            seen += self.margins[tenth]
            if seen * 2 >= total:
                return (tenth + 0.5) / 1000.0
        return None  # unreachable


SAME_POSITION = 0.003
"""Two margin-free positions this close (relatively) are the same price at two margins (a
copy is rounded to its own precision: 0.01 on a price of 1.5 moves it by 0.3 %)."""


class SisterCounts:
    """Sisters: a white-label book changes its prices right after its parent does, the same
    way, nearly every time it changes them at all. Counted per ordered pair of books."""

    def __init__(self, gap: float) -> None:
        self.gap = gap
        self.changes: Counter[str] = Counter()
        self.after: dict[str, dict[str, int]] = {}
        """b -> {a: times b moved a line within `gap` seconds after a did, the same way, to a's
        position}. By b first: a change finds its row once, and makes no (a, b) key a count."""

    def observe(self, recent: deque[tuple[float, str]], positions: dict[str, float],
                book: str, time: float) -> None:
        """`recent`: (when, book) of the line's latest changes the same way as this one, oldest
        first (those more than `gap` seconds before `time` are dropped here); `positions`: each
        book's margin-free position now. A copy lands on its parent's position (up to
        rounding)."""
        self.changes[book] += 1
        horizon = time - self.gap
        while recent and recent[0][0] < horizon:
            recent.popleft()
        if not recent:
            return
        mine = positions[book]
        seen = {book}  # a book is judged once: its position is one, however often it moved
        row = None
        for when, other in recent:
            if when >= time:
                break  # the changes at this very instant, and only those, are left
            if other in seen:
                continue
            seen.add(other)
            theirs = positions.get(other)
            if theirs is not None and abs(mine - theirs) <= SAME_POSITION * theirs:
                if row is None:
                    row = self.after.get(book)
                    if row is None:
                        row = self.after[book] = {}
                row[other] = row.get(other, 0) + 1

    def add(self, other: SisterCounts) -> None:
        """`other`'s counts added to these (engines that watched other events)."""
        self.changes.update(other.changes)
        for book, theirs in other.after.items():
            row = self.after.setdefault(book, {})
            for parent, count in theirs.items():
                row[parent] = row.get(parent, 0) + count

    def sister_of(self, share: float, least: int = 10) -> dict[str, str]:
        """book -> the book it copies: most of its changes (at least `share` of them, and at
        least `least`) come right after that book's, and rarely the other way round."""
        best: dict[str, tuple[float, str]] = {}
        empty: dict[str, int] = {}
        for book, row in self.after.items():
            changes = self.changes[book]
            if changes < least:
                continue
            for parent, count in row.items():  # in the order first counted: the first wins a tie
                score = count / changes
                if score < share or self.after.get(parent, empty).get(book, 0) * 2 > count:
                    continue
                if book not in best or score > best[book][0]:
                    best[book] = (score, parent)
        return {book: parent for book, (_, parent) in best.items()}


def clusters_of(books: list[str], sister_of: dict[str, str]) -> dict[str, str]:
    """book -> its cluster's name: the book at the root of its copying chain (itself if none)."""
    out: dict[str, str] = {}
    for book in books:
        root, seen = book, {book}
        while root in sister_of and sister_of[root] not in seen:
            root = sister_of[root]
            seen.add(root)
        out[book] = root
    return out
