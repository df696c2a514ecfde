"""What the world simulates for each bookmaker, for `oddstui serve --truth FILE`: the answer
the bookmaker intelligence (`oddstui books`, docs/books.md) is checked against."""

from __future__ import annotations

from typing import Any

from oddstui.service.world.model import Bookmaker

PRE_MATCH_FOLLOW = (0.3, 1.6)
"""A soft book follows a pre-match move after its latency times a uniform draw in this range
(`PriceMaking._follow`): its median lag is the latency times their mean, 0.95."""


def bookmaker_truth(bookmakers: dict[str, Bookmaker]) -> dict[str, Any]:
    """`{"bookmakers": {name: {"sharp", "latencySeconds", "sisterOf", ...}}}`. A sister's
    latency is its parent's plus its copy delay (it copies the parent, which follows the move).
    Seconds are simulated seconds (real seconds at --speed 1)."""
    out: dict[str, Any] = {}
    for name, book in bookmakers.items():
        parent = bookmakers.get(book.sister_of) if book.sister_of else None
        latency = 0.0 if book.sharp else book.latency
        if parent is not None:
            latency = (0.0 if parent.sharp else parent.latency) + book.copy_delay
        out[name] = {
            "sharp": book.sharp,
            "latencySeconds": round(latency, 3),
            "sisterOf": book.sister_of,
            "copyDelaySeconds": round(book.copy_delay, 3) if parent is not None else None,
            "marginPct": round(book.margin * 100.0, 3),
            "active": book.active,
        }
    return {"bookmakers": out, "preMatchFollow": list(PRE_MATCH_FOLLOW)}
