"""Episodes: same-direction moves of one line across books within W seconds. The first mover
leads; an episode moved by at least k independent clusters, each by θ or more, is steam."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import NamedTuple


class Episode:
    __slots__ = ("key", "start", "direction", "leader", "members")

    def __init__(self, key: object, start: float, direction: int, leader: str) -> None:
        self.key = key
        self.start = start
        self.direction = direction
        self.leader = leader
        self.members: dict[str, tuple[float, float, float]] = {}
        """book -> (when it moved, its move's relative size, its size in probability: the
        change of the line's first side's margin-free probability, as a share)."""


class EndedEpisode(NamedTuple):
    """An episode that ended moved by k or more books by θ: what its steam needs, and no more
    (a tuple: a worker sends thousands of them back to be judged by the merged clusters)."""

    start: float
    key: Hashable
    direction: int
    leader: str
    big: tuple[tuple[str, float, float], ...]
    """(book, relative size, size in probability) of the members that moved θ or more."""
    books: int
    """Books that moved in it."""
    stale: tuple[str, ...]
    """Books quoting the line when it ended that had not moved, by name."""


def ended(episode: Episode, quoting: Iterable[str], theta: float) -> EndedEpisode:
    """`episode` as it ended, with `quoting` the books quoting its line then."""
    members = episode.members
    big = []
    for book, (_, size, points) in members.items():
        if size >= theta:
            big.append((book, size, points))
    return EndedEpisode(episode.start, episode.key, episode.direction, episode.leader,
                        tuple(big), len(members),
                        tuple(sorted(book for book in quoting if book not in members)))


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


def steam_events(episodes: list[EndedEpisode], cluster: dict[str, str],
                 k: int) -> list[SteamEvent]:
    """The steam among ended `episodes`, by when each began, ties by line: one order however
    many engines watched a share of the events (`intel.merge`)."""
    found = []
    for episode in episodes:
        event = steam_of(episode, cluster, k)
        if event is not None:
            found.append(event)
    # Sorted once found (stable, so ties keep the episodes' order): most episodes are no steam.
    found.sort(key=lambda event: (event.time, repr(event.key)))
    return found


def steam_of(episode: EndedEpisode, cluster: dict[str, str], k: int) -> SteamEvent | None:
    """Steam when the books that moved θ or more are of k or more clusters."""
    big = episode.big
    if len(big) < k:
        return None
    clusters = set()
    size = points = 0.0
    for book, moved, probability in big:  # (one loop, not a set and two max(): every episode)
        clusters.add(cluster.get(book, book))
        if moved > size:
            size = moved
        if probability > points:
            points = probability
    if len(clusters) < k:
        return None
    return SteamEvent(
        time=episode.start,
        key=episode.key,
        direction=episode.direction,
        origin=episode.leader,
        breadth=len(clusters),
        size=size,
        points=points,
        books=episode.books,
        stale=episode.stale,
    )
