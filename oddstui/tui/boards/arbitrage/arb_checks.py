"""Which arbitrages the board shows and which are suspect, kept between draws. No textual.

Judging a row needs its legs' quote times, read from the feed's book under its lock. Reading and
judging all 500 rows on every change set cost a third of a core, so both are kept here: a change
set re-reads and re-judges only the rows it touched (the rows `ArbRows` marks dirty: every row
of a market the feed moved is scanned again, so it is among them), and the age step re-judges
every row from the kept times (a leg's age alone can make a row stale), reading nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

from oddstui.tui.boards.arbitrage.arb_quotes import QuoteTimes, oldest_age


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the board decided about one row at its last check."""

    accepted: bool
    """The row passes the trader's filters."""
    suspect: str = ""
    """Why the row is suspect, or "" (only judged for accepted rows)."""


class RowChecks:
    """Each row's leg quote times and verdict, refreshed only where something changed."""

    def __init__(self) -> None:
        #: Unix time each leg of a row was quoted, by row key (see `arb_quotes.leg_times`).
        self.times: dict[str, QuoteTimes] = {}
        self.verdicts: dict[str, Verdict] = {}

    def to_read(self, rows: Collection[str], dirty: Collection[str], every: bool) -> set[str]:
        """The rows whose leg times must be read again: the changed ones, the new ones, or all
        when `every`. Rows no longer known are forgotten."""
        for key in [key for key in self.times if key not in rows]:
            del self.times[key]
            self.verdicts.pop(key, None)
        if every:
            return set(rows)
        return {key for key in dirty if key in rows} | {k for k in rows if k not in self.times}

    def store(self, read: Mapping[str, QuoteTimes]) -> None:
        self.times.update(read)

    def age(self, key: str, now: float) -> float | None:
        """Seconds since the oldest known leg of row `key` was quoted (None: none known)."""
        return oldest_age(self.times.get(key, ()), now)

    def judge(self, keys: Collection[str], verdict: Callable[[str], Verdict]) -> set[str]:
        """Judge the rows in `keys` again; returns those whose suspicion turned either way (a
        row can turn suspect with no price moving, and is then redrawn)."""
        turned = set()
        for key in keys:
            before = self.verdicts.get(key)
            after = self.verdicts[key] = verdict(key)
            if before is not None and bool(before.suspect) != bool(after.suspect):
                turned.add(key)
        return turned

    def unjudged(self, rows: Collection[str]) -> list[str]:
        return [key for key in rows if key not in self.verdicts]
