"""gc_settle.settle(): a full collection that finds old cycles, then the survivors frozen."""

from __future__ import annotations

import gc
import weakref

from oddstui.tui.desk import gc_settle


class Node:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only the cycle collector frees it


def test_settle_collects_old_cycles_and_freezes_the_rest() -> None:
    try:
        kept = [Node() for _ in range(100)]
        watch = weakref.ref(kept[0])
        frozen = gc_settle.settle()
        assert frozen == gc.get_freeze_count() >= len(kept)
        assert watch() is not None
        # Cycles that die after a settle sit in the frozen generation, where automatic
        # collections never look; the next settle unfreezes first, so they are still found.
        del kept
        gc.collect()
        assert watch() is not None
        gc_settle.settle()
        assert watch() is None
    finally:
        gc.unfreeze()
