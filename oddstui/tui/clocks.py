"""Match clocks that tick locally from the last clock the service sent and when it arrived.

The service sends a clock only with events (REST); the UI derives the running time from
(played seconds, arrival time) on one app-wide one-second timer instead of redrawing per message.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ClockReading:
    """One clock as received, stamped with the local time it arrived."""

    minute: int
    played_seconds: int
    period: int
    running: bool
    status_detail: str
    injury_time: int
    arrived_at: float
    serve: str | None = None

    def played_at(self, now: float, rate: float = 1.0) -> int:
        """Seconds played at local time `now`; a stopped clock stays where it was."""
        if not self.running:
            return self.played_seconds
        return self.played_seconds + max(int((now - self.arrived_at) * rate), 0)

    def show(self, now: float, rate: float = 1.0) -> str:
        """`mm:ss` of play, or the status detail alone when the clock is stopped at zero."""
        played = self.played_at(now, rate)
        if not self.running and played == 0:
            return ""
        minutes, seconds = divmod(played, 60)
        return f"{minutes:02d}:{seconds:02d}"
