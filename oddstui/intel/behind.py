"""Who is behind a sharp move, besides the follow itself: a book already past half-way to the
move's new price is not behind it (no stale line, though its follow is still timed), and a move
the sharp price has taken back leaves no one behind.

Measured as the follow is (docs/books.md): against half the move, from the sharp position it
started from. A book's position is its margin-free view, so "past half-way" compares it with
the sharp books' own: a price already there is no stale price, whatever its own last move was.
"""

from __future__ import annotations

from oddstui.intel.lines import LineState, SharpMove


def past_half(move: SharpMove, position: float) -> bool:
    """`position` is past half-way from where the sharp price started to where it moved."""
    return (position / move.before - 1.0) * move.direction >= move.size / 2.0


def watched(move: SharpMove, positions: dict[str, float],
            sharp: frozenset[str]) -> tuple[dict[str, float], set[str]]:
    """The soft books whose follow of `move` is timed (book -> position as it begins), and
    those of them already past half-way: no price of theirs is left on the old side.

    Their follow is still timed from their own position (a book whose view sits on the new side
    of the sharp books' still moves when it sees the move): leaving them out shortened the
    slowest books' medians on the golden recording (a lagging view is past half-way when it
    has not yet seen the move before, which it is about to follow)."""
    follow = {book: pos for book, pos in positions.items() if book not in sharp}
    return follow, {book for book, pos in follow.items() if past_half(move, pos)}


def stale_by(move: SharpMove, book: str) -> bool:
    """`book`'s price is a stale line on the old side of `move` (not followed yet, and not
    already past half-way when it began): its edge against the fair price is that same line."""
    return book in move.pending and book not in move.ahead


def taken_back(move: SharpMove, sharp: float) -> bool:
    """The sharp price is back on the old side of `move`: less than half-way from where it
    started to where the move took it (`after`: a jump in steps within τ is one move). The move
    is over for every book still behind it."""
    return (sharp - move.before) * move.direction < (move.after - move.before) * move.direction / 2


def still_behind(move: SharpMove, line: LineState) -> list[str]:
    """The books with a price on the old side of `move` now: not followed, not past half-way
    when it began nor since (a small move of its own can take a book there)."""
    positions = line.positions
    return [book for book in move.pending if book not in move.ahead
            and book in positions and not past_half(move, positions[book])]
