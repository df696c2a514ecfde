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
        self.members: dict[str, tuple[float, float, float]] = {}
        """book -> (when it moved, its move's relative size, its size in probability: the
        change of the line's first side's margin-free probability, as a share)."""
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
    """The largest relative move among them (of the first side's margin-free probability: what
    θ is measured in, and large on a long shot, where 2 % to 4 % is a 100 % move)."""
    points: float
    """The largest move among them in probability (a share: 0.02 is two percentage points),
    the same whichever side of the line is named first: the size to show."""
    books: int
    """Books that moved in the episode."""
    stale: tuple[str, ...]
    """Books quoting the line that had not moved when the episode ended."""


def steam_events(episodes: list[Episode], cluster: dict[str, str], theta: float,
                 k: int) -> list[SteamEvent]:
    """The steam among ended `episodes`, by when each began, ties by line: one order however
    many engines watched a share of the events (`intel.merge`)."""
    found = []
    for episode in episodes:
        event = steam_of(episode, cluster, theta, k)
        if event is not None:
            found.append(event)
    # Sorted once found (stable, so ties keep the episodes' order): most episodes are no steam.
    found.sort(key=lambda event: (event.time, repr(event.key)))
    return found


def steam_of(episode: Episode, cluster: dict[str, str], theta: float, k: int) -> SteamEvent | None:
    if len(episode.members) < k:
        return None  # fewer books than the clusters it needs
    big = [(book, size, points) for book, (_, size, points) in episode.members.items()
           if size >= theta]
    clusters = {cluster.get(book, book) for book, _, _ in big}
    if len(clusters) < k:
        return None
    return SteamEvent(
        time=episode.start,
        key=episode.key,
        direction=episode.direction,
        origin=episode.leader,
        breadth=len(clusters),
        size=max(size for _, size, _ in big),
        points=max(points for _, _, points in big),
        books=len(episode.members),
        stale=tuple(sorted(b for b in episode.quoting if b not in episode.members)),
    )
