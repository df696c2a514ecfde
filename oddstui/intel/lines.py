"""One line's state in the engine: each book's margin-free position, the sharp books' averaged
position, the line's fair line (the desk's one fair policy) and the sharp moves still being
followed on it.

A book's *position* on a line is the margin-free probability of the line's first side (sides in
name order, lay prices left out): one number that moves when the book's view moves, whatever its
margin, so that books with different margins compare directly. It measures movement (a sharp
move, a follow), never value: a price's edge is judged against the fair line of
`book.fair_policy`, as on every board.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping

from oddstui.book.fair_policy import FairLine
from oddstui.book.value import best_expected_value
from oddstui.intel.episodes import Episode

Prices = Mapping[str, float]


def back_sides(prices: Prices) -> tuple[str, ...]:
    return tuple(sorted(side for side in prices if not side.startswith("lay")))


def sharp_position(positions: dict[str, float], sharp: frozenset[str]) -> float | None:
    """The sharp books' averaged position (`LineState.sharp`), None when none quotes."""
    total, count = 0.0, 0
    for book in sharp:  # (a loop: a comprehension and sum() cost more, at every sharp change)
        position = positions.get(book)
        if position is not None:
            total += position
            count += 1
    return total / count if count else None


def edge(line: LineState, book: str) -> float | None:
    """The best EV (a share, `book.value`) of `book`'s prices on the line against the line's
    fair line (`book.fair_policy`, as the boards'); None without a fair line or without the
    book's price of every side."""
    fair = line.fair
    prices = line.prices.get(book)
    sides = line.sides
    if fair is None or prices is None or sides is None:
        return None
    return best_expected_value(fair.probabilities, prices, sides)


class SharpMove:
    """A move of the sharp position by at least θ: who has followed it and who not yet."""

    __slots__ = ("line", "start", "direction", "size", "before", "after", "fair_before",
                 "fair_after", "confirmed", "pending", "ahead", "followed", "done", "live")

    def __init__(self, line: LineState, start: float, direction: int, size: float,
                 before: float, after: float, fair_before: FairLine | None,
                 fair_after: FairLine | None) -> None:
        self.line = line
        self.start = start
        self.direction = direction
        self.size = size
        """Relative size of the move (|after / before - 1|)."""
        self.before = before
        self.after = after
        self.fair_before = fair_before
        self.fair_after = fair_after
        """The line's fair line where the move was measured from, and where it went."""
        self.confirmed = False
        """It held τ seconds (until then its follows wait in `followed`)."""
        self.pending: dict[str, float] = {}
        """book -> its position when the move began, for the books not yet following."""
        self.ahead: set[str] = set()
        """Books already past half-way to the new price when it began: no stale line."""
        self.followed: list[tuple[str, float, bool]] = []
        """(book, seconds, followed) seen before the move was confirmed."""
        self.done = False
        self.live = False
        """The event was in play when the move began."""


class LineState:
    __slots__ = ("key", "sides", "positions", "prices", "recent", "sharp", "fair", "sharp_log",
                 "ref", "ref_fair", "candidate", "moves", "anchors", "episode", "ev_since")

    def __init__(self, key: object) -> None:
        self.key = key
        self.sides: tuple[str, ...] | None = None
        self.positions: dict[str, float] = {}
        """book -> its position now."""
        self.prices: dict[str, Prices] = {}
        """book -> its prices now."""
        self.recent: tuple[deque[tuple[float, str]], deque[tuple[float, str]]] = (
            deque(), deque())
        """(when, book) of the line's latest position changes, those that lowered it and those
        that raised it (`recent[way > 0]`): a sister is looked for among the same way's only
        (`SisterCounts` drops those older than its gap)."""
        self.sharp: float | None = None
        """The sharp books' averaged position now (what a sharp move moves)."""
        self.fair: FairLine | None = None
        """The line's fair line now, by the desk's one fair policy (`book.fair_policy`, over
        the engine's sharp books); None while no sharp book quotes every side."""
        self.sharp_log: list[tuple[float, float, FairLine | None]] | None = None
        """(when, sharp position, fair line) of the sharp changes of the last τ seconds."""
        self.ref: float | None = None
        """The sharp position a move is measured from: where it stood τ seconds before (or
        where the last move left it, if later)."""
        self.ref_fair: FairLine | None = None
        """The fair line at `ref`."""
        self.candidate: SharpMove | None = None
        """A sharp move waiting to hold τ seconds."""
        self.moves: list[SharpMove] = []
        """Moves whose followers are still watched."""
        self.anchors: dict[str, float] = {}
        """book -> its position at its last counted move (episodes)."""
        self.episode: Episode | None = None
        self.ev_since: dict[str, float] = {}
        """book -> since when its price has had EV above ε against the fair line."""
