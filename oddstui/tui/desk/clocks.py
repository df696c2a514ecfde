"""Match clocks that tick locally from the last clock the service sent and when it was read.

The service sends a clock with events (REST), and the built-in one also on the feed when a clock
stops or starts (docs/desk.md, "Wire"); the UI derives the running time from
(played seconds, arrival time) on one app-wide one-second timer instead of redrawing per message.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ClockReading:
    """One clock as received, stamped with the local time it was read (`arrived_at`: a REST
    answer's request send, a feed message's send; docs/clocks.md)."""

    minute: int
    played_seconds: int
    period: int
    running: bool
    status_detail: str
    injury_time: int
    arrived_at: float
    serve: str | None = None
    rate: float = 1.0  # seconds of play per local second (a built-in service may run faster)
    # The played seconds already shown in this period when this clock arrived: a wire value
    # behind it holds the shown clock until the wire catches up (a clock never steps back).
    floor: int = 0
    #: True when the feed carried it: the service tells when this clock stops and starts.
    from_feed: bool = False

    def played_at(self, now: float, rate: float | None = None) -> int:
        """Seconds played at local time `now`; a stopped clock stays where it was."""
        if not self.running:
            return max(self.played_seconds, self.floor)
        speed = self.rate if rate is None else rate
        return max(self.played_seconds + max(int((now - self.arrived_at) * speed), 0), self.floor)

    def show(self, now: float, rate: float | None = None) -> str:
        """`mm:ss` of play, or the status detail alone when the clock is stopped at zero."""
        played = self.played_at(now, rate)
        if not self.running and played == 0:
            return ""
        minutes, seconds = divmod(played, 60)
        return f"{minutes:02d}:{seconds:02d}"


def estimate_rate(pairs: list[tuple[ClockReading, ClockReading]]) -> float | None:
    """Seconds of play per local second, from clocks read twice while running.

    The public service runs in real time (1.0); the built-in one may be sped up. Rates near 1
    snap to 1 so whole-second rounding never makes a clock step back.
    """
    samples = []
    for old, new in pairs:
        elapsed = new.arrived_at - old.arrived_at
        played = new.played_seconds - old.played_seconds
        if old.running and new.running and old.period == new.period and elapsed >= 2 and played > 0:
            samples.append(played / elapsed)
    if not samples:
        return None
    rate = statistics.median(samples)
    return 1.0 if 0.8 <= rate <= 1.25 else min(max(rate, 0.1), 1000.0)
