"""The odds journal: one entry per changed (event, bookie) pair per step, with a global seq.

Entries carry no content: a message is built from the current state (`World.markets_wire`), so
that after `step()` returns the state is exactly what the latest entries describe. The journal
keeps a bounded replay window (real seconds and a count) for the feed's `lastSeq` resume.
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Callable, Iterable
from typing import NamedTuple

CREATED, UPDATED, DELETED, NO_MARKETS = "created", "updated", "deleted", "no_markets"
ENTRY_TYPES = (CREATED, UPDATED, DELETED, NO_MARKETS)


class JournalEntry(NamedTuple):
    seq: int
    event_id: int
    bookie: str
    type: str
    timestamp: float  # simulated Unix seconds

    @property
    def kind(self) -> str:
        """Alias of `type`."""
        return self.type

    @property
    def ts(self) -> float:
        """Alias of `timestamp`."""
        return self.timestamp


class Journal:
    def __init__(
        self, replay_window: float = 600.0, max_entries: int = 200_000,
        real_clock: Callable[[], float] = time.monotonic, first_seq: int = 0,
    ) -> None:
        self.replay_window = replay_window
        self.max_entries = max_entries
        self._real_clock = real_clock
        self.seq = first_seq  # the seq of the latest entry (first_seq: none yet)
        self._entries: list[JournalEntry] = []
        self._real: list[float] = []  # real time each entry was written
        self._head = 0  # entries before it have left the window

    # -- writing (the world only) ---------------------------------------------------------
    def append(self, pairs: Iterable[tuple[int, str, str]], timestamp: float) -> list[JournalEntry]:
        """Journal each (event_id, bookie, type); returns the new entries in seq order."""
        now = self._real_clock()
        out = []
        for event_id, bookie, kind in pairs:
            self.seq += 1
            entry = JournalEntry(self.seq, event_id, bookie, kind, timestamp)
            out.append(entry)
        self._entries.extend(out)
        self._real.extend([now] * len(out))
        self._trim(now)
        return out

    def _trim(self, now: float) -> None:
        cut = bisect.bisect_left(self._real, now - self.replay_window, self._head)
        cut = max(cut, len(self._entries) - self.max_entries)
        if cut > self._head:
            self._head = cut
        if self._head > 4096 and self._head * 2 > len(self._entries):
            del self._entries[: self._head]
            del self._real[: self._head]
            self._head = 0

    # -- reading ----------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._entries) - self._head

    @property
    def oldest_seq(self) -> int:
        """The seq of the oldest entry still in the window (seq + 1 when empty)."""
        return self._entries[self._head].seq if len(self) else self.seq + 1

    def entries(self) -> list[JournalEntry]:
        return self._entries[self._head:]

    def replay_since(self, last_seq: int) -> list[JournalEntry] | None:
        """The latest entry per (event, bookie) after `last_seq`, in seq order, or None when
        `last_seq` is outside the window (older than it, or ahead of the current seq)."""
        self._trim(self._real_clock())
        if last_seq > self.seq or last_seq < 0:
            return None
        if last_seq < self.oldest_seq - 1:
            return None
        start = self._index_after(last_seq)
        latest: dict[tuple[int, str], JournalEntry] = {}
        for entry in self._entries[start:]:
            latest[(entry.event_id, entry.bookie)] = entry
        return sorted(latest.values())

    def changed_since(self, timestamp: float) -> list[JournalEntry]:
        """The latest entry per (event, bookie) written at simulated time >= timestamp."""
        entries = self._entries
        lo, hi = self._head, len(entries)
        while lo < hi:
            mid = (lo + hi) // 2
            if entries[mid].timestamp < timestamp:
                lo = mid + 1
            else:
                hi = mid
        latest: dict[tuple[int, str], JournalEntry] = {}
        for entry in entries[lo:]:
            latest[(entry.event_id, entry.bookie)] = entry
        return sorted(latest.values())

    def _index_after(self, last_seq: int) -> int:
        if not len(self):
            return len(self._entries)
        # Seqs are consecutive inside the list, so the index is arithmetic.
        first = self._entries[self._head].seq
        return self._head + max(0, last_seq - first + 1)
