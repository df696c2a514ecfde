"""The live ticket: its legs as they are now against the ones it opened with. No textual.

A board hands the ticket a `TicketRead` on every tick: the legs it would show now (a leg's
bookmaker may have changed, its price moved, or its bookmaker stopped quoting it) and whether
the match has ended. The ticket's title is the profit of the legs it shows now, each change is
marked on its leg, a gone leg blocks logging until the trader confirms, and a match that ended
blocks it for good.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from oddstui.book.arbitrage import profit_pct
from oddstui.tui.boards.ticket.stakes import TicketLeg

#: The mark on a leg, by what changed since the ticket opened (the most serious first).
GONE_MARK, SWITCHED_MARK, MOVED_MARK = "✗", "⇄", "~"


@dataclass(frozen=True, slots=True)
class TicketRead:
    """What a board says of an open ticket's line now."""

    legs: tuple[TicketLeg, ...]
    """The legs in the ticket's order, one per leg it opened with."""
    ended: str = ""
    """The event's status once the match has ended (`settled`, `cancelled`), else ""."""


def leg_mark(opened: TicketLeg, now: TicketLeg) -> str:
    """`✗` gone, `⇄` another bookmaker, `~` another price, or "" for a leg as it opened."""
    if now.gone:
        return GONE_MARK
    if now.bookmaker != opened.bookmaker:
        return SWITCHED_MARK
    if now.price != opened.price:
        return MOVED_MARK
    return ""


def leg_change(opened: TicketLeg, now: TicketLeg) -> str:
    """The change in words (`FanDuel now, was Pinnacle`), or "" for a leg as it opened."""
    mark = leg_mark(opened, now)
    if mark == GONE_MARK:
        return f"{now.bookmaker} no longer quotes it"
    if mark == SWITCHED_MARK:
        return f"{now.bookmaker} now, was {opened.bookmaker} at {opened.price:g}"
    if mark == MOVED_MARK:
        return f"{now.price:g} now, was {opened.price:g}"
    return ""


def gone_legs(legs: Sequence[TicketLeg]) -> list[int]:
    """The indexes of the legs no bookmaker quotes any more."""
    return [index for index, leg in enumerate(legs) if leg.gone]


def title_profit(legs: Sequence[TicketLeg], ended: str = "") -> str:
    """The title's last part: the profit of the legs shown now (`+1.23%`), or why there is
    none (`match settled`, `leg 2 gone`)."""
    if ended:
        return f"match {ended}: not tradable"
    gone = gone_legs(legs)
    if gone:
        return "leg " + ", ".join(str(index + 1) for index in gone) + " gone"
    if not legs:
        return "no legs"
    return f"{profit_pct(leg.price for leg in legs):+.2f}%"


def follow(opened: Sequence[TicketLeg], read: Sequence[TicketLeg] | None) -> list[TicketLeg]:
    """The legs to show: `read` when it has one per leg opened, side for side; otherwise the
    legs opened, each marked gone (the line itself is gone)."""
    if read is not None and [leg.side for leg in read] == [leg.side for leg in opened]:
        return list(read)
    return [
        TicketLeg(
            leg.side,
            leg.bookmaker,
            leg.price,
            leg.label,
            commission=leg.commission,
            limit=leg.limit,
            gone=True,
        )
        for leg in opened
    ]
