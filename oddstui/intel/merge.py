"""Engines that each watched a share of the events, merged into one (`oddstui books` with
several processes). Everything the engine counts belongs to one line, so one event, and adds up
exactly: the merged figures are the one-process run's."""

from __future__ import annotations

from oddstui.intel.engine import IntelEngine
from oddstui.intel.tally import BookTally


def shrink(engine: IntelEngine) -> IntelEngine:
    """A finished engine without its lines (what a report needs is in its tallies), small to
    send back from a worker."""
    engine.lines = {}
    engine._open = set()
    engine._heap = []
    return engine


def merge(engines: list[IntelEngine]) -> IntelEngine:
    """The finished engines as one: the first, with the others' counts added."""
    merged = engines[0]
    for other in engines[1:]:
        for name, tally in other.books.items():
            mine = merged.books.get(name)
            if mine is None:
                merged.books[name] = tally
            else:
                _add(mine, tally)
        merged.sisters.add(other.sisters)
        merged.episodes += other.episodes
        merged.sharp_moves += other.sharp_moves
        merged.changes += other.changes
        if other.first is not None and (merged.first is None or other.first < merged.first):
            merged.first = other.first
        merged.now = max(merged.now, other.now)
        merged.resolution.merge(other.resolution)
    return merged


def _add(mine: BookTally, other: BookTally) -> None:
    mine.updates += other.updates
    mine.markets |= other.markets
    for tenth, count in other.margins.items():
        mine.margins[tenth] = mine.margins.get(tenth, 0) + count
    mine.early_follows += other.early_follows
    mine.live_follows += other.live_follows
    mine.stale += other.stale
    mine.led += other.led
    mine.joined += other.joined
