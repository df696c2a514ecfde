"""Short garbage-collection pauses for a process that holds a large, churning odds book.

CPython's full (generation 2) collection walks every tracked object. With the book, the catalog
and Textual loaded that took 300–700 ms on a busy 2-core box, every few seconds under a feed of
1,000 messages a second: a visible stall, and the worst of the message-to-paint latency.

`settle()` makes one full collection, then freezes what survived (`gc.freeze()`), so the
automatic collections that follow only walk objects made since. It unfreezes first, so cycles
among older objects are still found; the app calls it a few seconds after start and then once a
minute, trading one full pause a minute for short pauses in between.
"""

from __future__ import annotations

import gc

#: Seconds between two settles (after the first one).
SETTLE_EVERY = 60.0
#: Seconds after start for the first settle (the catalog and the first snapshot are in by then).
FIRST_SETTLE = 5.0


def settle() -> int:
    """Collect everything, then freeze the survivors; returns how many objects are frozen."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
