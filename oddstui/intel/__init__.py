"""Bookmaker intelligence: who leads, who follows, which books are copies, which prices are stale.

A pure engine (no I/O, no asyncio, no textual) fed price changes in time order, from the live
feed or a recording: `IntelEngine.observe(time, line, bookmaker, prices)`. See docs/books.md.
"""
