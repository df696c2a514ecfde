"""A line read afresh (a REST snapshot) fed to the engine as the changes it implies."""

from __future__ import annotations

from collections.abc import Hashable, Mapping

from oddstui.intel.engine import IntelEngine
from oddstui.intel.lines import Prices


def observe_quotes(engine: IntelEngine, time: float, key: Hashable,
                   quotes: Mapping[str, Prices]) -> None:
    """A line read afresh (a snapshot): every book's prices on it are now `quotes`."""
    line = engine.lines.get(key)
    gone = [] if line is None else [b for b in line.positions if b not in quotes]
    for book in gone:
        engine.observe(time, key, book, None)
    for book, prices in quotes.items():
        engine.observe(time, key, book, prices)
