"""The relay's replay window: the changes it relayed, with their text, for `lastSeq` resumes.

Unlike the world's journal, seqs here are the upstream's and have gaps (the upstream feed carries
only the key's bookmakers and the relay's markets). `floor` is the seq from which the journal is
complete: every relayed change after it is here, as the latest per (event, bookie) pair.
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Callable
from typing import NamedTuple


class Relayed(NamedTuple):
    """One odds message as the relay received it; `line` is its JSON text, sent on as it is."""

    seq: int
    kind: str
    event_id: int
    bookie: str
    line: str


class RelayJournal:
    def __init__(
        self,
        window: float = 600.0,
        max_entries: int = 200_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.window = window
        self.max_entries = max_entries
        self._clock = clock
        self.seq = 0  # the latest seq relayed, or where the stream started
        self.floor = 0
        self._seqs: list[int] = []
        self._pairs: list[tuple[int, str]] = []
        self._times: list[float] = []
        self._head = 0
        # The latest change of each pair that still has an entry in the window: replays send it.
        self._latest: dict[tuple[int, str], Relayed] = {}

    def __len__(self) -> int:
        return len(self._seqs) - self._head

    def restart(self, seq: int) -> None:
        """The stream starts over at `seq` (a first connection or a resync): forget the rest."""
        self.seq = self.floor = seq
        self._seqs, self._pairs, self._times = [], [], []
        self._head = 0
        self._latest = {}

    def append(self, change: Relayed) -> bool:
        """Journal a change; False (and nothing kept) when its seq is not above the latest."""
        if change.seq <= self.seq:
            return False
        pair = (change.event_id, change.bookie)
        self.seq = change.seq
        self._seqs.append(change.seq)
        self._pairs.append(pair)
        now = self._clock()
        self._times.append(now)
        self._latest[pair] = change
        if len(self._seqs) - self._head > self.max_entries or self._times[self._head] < (
            now - self.window
        ):
            self._trim(now)
        return True

    def replay_since(self, last_seq: int) -> list[Relayed] | None:
        """The latest change per pair after `last_seq`, in seq order; None outside the window."""
        self._trim(self._clock())
        if last_seq > self.seq or last_seq < self.floor:
            return None
        start = bisect.bisect_right(self._seqs, last_seq, self._head)
        pairs = dict.fromkeys(self._pairs[start:])
        return sorted((self._latest[pair] for pair in pairs), key=lambda change: change.seq)

    def _trim(self, now: float) -> None:
        cut = bisect.bisect_left(self._times, now - self.window, self._head)
        cut = max(cut, len(self._seqs) - self.max_entries)
        if cut <= self._head:
            return
        for index in range(self._head, cut):
            pair = self._pairs[index]
            latest = self._latest.get(pair)
            if latest is not None and latest.seq == self._seqs[index]:
                del self._latest[pair]  # the pair has nothing newer left in the window
        self.floor = self._seqs[cut - 1]
        self._head = cut
        if self._head > 4096 and self._head * 2 > len(self._seqs):
            del self._seqs[: self._head]
            del self._pairs[: self._head]
            del self._times[: self._head]
            self._head = 0
