"""The measures' thresholds, with their documented defaults (docs/books.md, "Defaults")."""

from __future__ import annotations

from dataclasses import dataclass

from oddstui.book.fair_policy import SHARP_BOOKS

THETA = 0.02
"""θ: the least relative move of the sharp books' averaged position (2 %) that counts as a sharp
move."""
TAU = 3.0
"""τ: seconds a sharp move must hold before it counts."""
EPSILON = 0.03
"""ε: EV against the line's fair line (3 %) above which a price is a stale line."""
K_CLUSTERS = 3
"""k: independent clusters that must move the same way for a steam event."""
WINDOW = 60.0
"""W: seconds within which moves across books make one episode (leadership, steam)."""
HORIZON = 300.0
"""Seconds a follower has to follow a sharp move; after that its follow is censored."""
SISTER_GAP = 3.0
"""Seconds within which a sister's change comes after its parent's (a copy delay of up to
two seconds, plus the feed's batching)."""
SISTER_SHARE = 0.5
"""The share of a book's changes that land on another's price right after it moved, for the
first to be the second's sister (in the world: 0.7 to 0.85 for sisters, at most 0.35 for others)."""


@dataclass(frozen=True, slots=True)
class IntelSettings:
    theta: float = THETA
    tau: float = TAU
    epsilon: float = EPSILON
    k: int = K_CLUSTERS
    window: float = WINDOW
    horizon: float = HORIZON
    sister_gap: float = SISTER_GAP
    sister_share: float = SISTER_SHARE
    sharp: tuple[str, ...] = SHARP_BOOKS
    """The sharp books: their averaged position makes a sharp move; in this order, the fair
    policy's books of a line's fair line (`book.fair_policy`), against which an edge is judged."""
