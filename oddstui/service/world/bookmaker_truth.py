"""What the world simulates for each bookmaker, for `oddstui serve --truth FILE`: the answer
the bookmaker intelligence (`oddstui books`, docs/books.md) is checked against."""

from __future__ import annotations

from typing import Any

from oddstui.service.world.model import Bookmaker

PRE_MATCH_FOLLOW = (0.3, 1.6)
"""A soft book follows a pre-match move after its latency times a uniform draw in this range
(`PriceMaking._follow`): its median lag is the latency times their mean, 0.95."""
IN_PLAY_BASE, IN_PLAY_SHARE, IN_PLAY_SPREAD = 0.5, 0.15, (0.5, 1.5)
"""In play it follows after (IN_PLAY_BASE + IN_PLAY_SHARE × latency) times a uniform draw in
IN_PLAY_SPREAD: its median lag is 0.5 + 0.15 × latency."""


def copy_delay(book: Bookmaker, in_play: bool) -> float:
    """A sister's seconds between its parent's change and its copy. The copy is part of the
    sister's latency, so in play, where a latency counts IN_PLAY_SHARE times, so does the copy:
    one `latencySeconds` then ranks every book, sisters included, before kick-off and in play."""
    return book.copy_delay * (IN_PLAY_SHARE if in_play else 1.0)


def median_lags(latency: float) -> tuple[float, float]:
    """The median lag (before kick-off, in play) of a soft book with this latency."""
    return (latency * sum(PRE_MATCH_FOLLOW) / 2.0,
            (IN_PLAY_BASE + IN_PLAY_SHARE * latency) * sum(IN_PLAY_SPREAD) / 2.0)


def bookmaker_truth(bookmakers: dict[str, Bookmaker]) -> dict[str, Any]:
    """`{"bookmakers": {name: {"sharp", "latencySeconds", "sisterOf", ...}}}`. A sister's
    latency is its parent's plus its copy delay (it copies the parent, which follows the move).
    `medianLagSeconds`: the median lag to follow a move that the world's rule implies, before
    kick-off and in play (a sister's: its parent's plus its copy delay, which counts
    IN_PLAY_SHARE times in play like any latency). Seconds are simulated seconds (real seconds
    at --speed 1)."""
    out: dict[str, Any] = {}
    for name, book in bookmakers.items():
        parent = bookmakers.get(book.sister_of) if book.sister_of else None
        latency = 0.0 if book.sharp else book.latency
        pre, live = (0.0, 0.0) if book.sharp else median_lags(book.latency)
        if parent is not None:
            latency = (0.0 if parent.sharp else parent.latency) + book.copy_delay
            pre, live = (0.0, 0.0) if parent.sharp else median_lags(parent.latency)
            pre, live = pre + copy_delay(book, False), live + copy_delay(book, True)
        out[name] = {
            "sharp": book.sharp,
            "latencySeconds": round(latency, 3),
            "sisterOf": book.sister_of,
            "copyDelaySeconds": round(book.copy_delay, 3) if parent is not None else None,
            "copyDelayInPlaySeconds": (round(copy_delay(book, True), 3)
                                       if parent is not None else None),
            "medianLagSeconds": {"preMatch": round(pre, 3), "inPlay": round(live, 3)},
            "marginPct": round(book.margin * 100.0, 3),
            "active": book.active,
        }
    return {"bookmakers": out, "preMatchFollow": list(PRE_MATCH_FOLLOW)}
