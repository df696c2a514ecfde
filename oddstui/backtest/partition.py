"""One share of a recording's events, so that several processes can backtest it side by side.

Everything a backtest works out belongs to one event (its lines' best prices, arbitrages and
value bets, the alert rules on it), so the events can be shared out: event `id` goes to share
`id % count`. Each share still sees every record's time, so its clock is the recording's.
"""

from __future__ import annotations

from dataclasses import dataclass

from oddstui.recording.records import FeedMessage, Record, Snapshot

MAX_WORKERS = 8
"""The most processes a backtest shares its events among."""


@dataclass(frozen=True, slots=True)
class Share:
    index: int
    count: int

    def __post_init__(self) -> None:
        if not 0 <= self.index < self.count:
            raise ValueError(f"share {self.index} of {self.count} does not exist")

    def owns(self, event_id: object) -> bool:
        """A message with no readable event id (none the feed sends) goes to share 0, so it
        is still applied, or counted as malformed, once."""
        try:
            return int(event_id) % self.count == self.index  # type: ignore[call-overload]
        except (TypeError, ValueError):
            return self.index == 0

    def take(self, record: Record) -> Record | None:
        """The part of `record` that is this share's, or None."""
        if isinstance(record, FeedMessage):
            return record if self.owns(record.message.get("id")) else None
        if isinstance(record, Snapshot):
            return Snapshot(
                record.time,
                tuple(raw for raw in record.events if self.owns(raw.get("id"))),
                tuple(raw for raw in record.odds if self.owns(raw.get("id"))),
            )
        return record  # a gap
