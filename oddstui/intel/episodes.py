"""Episodes: same-direction moves of one line across books within W seconds. The first mover
leads; an episode moved by at least k independent clusters, each by θ or more, is steam."""

from __future__ import annotations

from dataclasses import dataclass


class Episode:
    __slots__ = ("key", "start", "direction", "leader", "members", "quoting")

    def __init__(self, key: object, start: float, direction: int, leader: str) -> None:
        self.key = key
        self.start = start
        self.direction = direction
        self.leader = leader
        self.members: dict[str, tuple[float, float]] = {}
        """book -> (when it moved, its move's relative size)."""
        self.quoting: tuple[str, ...] = ()
        """The books quoting the line when the episode ended."""


@dataclass(frozen=True, slots=True)
class SteamEvent:
    time: float
    key: object
    """The line: (event, market, (hdp, label))."""
    direction: int
    """+1: the line's first side shortened (its probability rose); -1: it drifted."""
    origin: str
    breadth: int
    """Independent clusters that moved by θ or more."""
    size: float
    """The largest relative move among them."""
    books: int
    """Books that moved in the episode."""
    stale: tuple[str, ...]
    """Books quoting the line that had not moved when the episode ended."""


def steam_of(episode: Episode, cluster: dict[str, str], theta: float, k: int) -> SteamEvent | None:
    big = [(book, size) for book, (_, size) in episode.members.items() if size >= theta]
    clusters = {cluster.get(book, book) for book, _ in big}
    if len(clusters) < k:
        return None
    return SteamEvent(
        time=episode.start,
        key=episode.key,
        direction=episode.direction,
        origin=episode.leader,
        breadth=len(clusters),
        size=max(size for _, size in big),
        books=len(episode.members),
        stale=tuple(sorted(b for b in episode.quoting if b not in episode.members)),
    )
