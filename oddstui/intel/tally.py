"""What the engine counts for each bookmaker, and the co-moves that reveal sister books."""

from __future__ import annotations

from collections import Counter


class BookTally:
    __slots__ = ("updates", "markets", "margins", "follows", "stale", "led", "joined")

    def __init__(self) -> None:
        self.updates = 0
        self.markets: set[tuple[object, object]] = set()
        """(event, market) pairs the book quoted."""
        self.margins: Counter[int] = Counter()
        """A histogram of its lines' margins in tenths of a percent (a median in constant
        memory however long the run)."""
        self.follows: list[tuple[float, bool]] = []
        """(seconds, followed) per sharp move it quoted; False: censored at that time."""
        self.stale: list[tuple[float, bool]] = []
        """(seconds, ended) per stale line of its; False: still stale when watching stopped."""
        self.led = 0
        self.joined = 0
        """Episodes it moved in (with another book), and of those the ones it moved first in."""

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


class SisterCounts:
    """Sisters: a white-label book changes its prices right after its parent does, the same
    way, nearly every time it changes them at all. Counted per ordered pair of books."""

    def __init__(self, gap: float) -> None:
        self.gap = gap
        self.changes: Counter[str] = Counter()
        self.after: Counter[tuple[str, str]] = Counter()
        """(a, b) -> times b changed a line within `gap` seconds after a did, the same way."""

    def observe(self, changed: dict[str, float], direction: dict[str, int], book: str,
                time: float, way: int) -> None:
        """`changed`/`direction`: when and which way each book last moved this line (before
        this change of `book`)."""
        self.changes[book] += 1
        gap = self.gap
        after = self.after
        for other, when in changed.items():
            if other != book and 0.0 < time - when <= gap and direction[other] == way:
                after[(other, book)] += 1

    def sister_of(self, share: float, least: int = 20) -> dict[str, str]:
        """book -> the book it copies: most of its changes (at least `share` of them, and at
        least `least`) come right after that book's, and rarely the other way round."""
        best: dict[str, tuple[float, str]] = {}
        for (parent, book), count in self.after.items():
            changes = self.changes[book]
            if changes < least:
                continue
            score = count / changes
            if score < share or self.after[(book, parent)] * 2 > count:
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
