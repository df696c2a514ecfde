"""One share of a recording's events, so that several processes can backtest it side by side.

Everything a backtest works out belongs to one event (its lines' best prices, arbitrages and
value bets, the alert rules on it), so the events can be shared out. The wall time is the
busiest share's, so the events are dealt to keep the shares' work even:

- The manifest counts each event's messages and their bytes (`Manifest.event_sizes`): those
  events are dealt before anything is read, the busiest first, each to the share with the
  fewest bytes so far. Bytes, not messages: a message's work grows with its size (a bookmaker
  sends all its markets in each), and an event's messages are 100 to 3,000 bytes long, so
  events dealt by their messages left one of two shares a tenth more work than the other (a
  recording from before the bytes were counted is dealt by its messages still).
- An event it does not count (a recording from before it counted) is dealt when first seen, to
  the share with the least work so far: a snapshot's events the busiest first, by how many
  bookmakers quote them (an event's messages follow its bookmakers); then the messages of those
  events count as their share's work as they come.

Every process deals the same way over the same records, so they agree on who owns what without
talking. Each share still sees every record's time, so its clock is the recording's.
"""

from __future__ import annotations

from collections.abc import Mapping

from oddstui.recording.event_ids import as_event_id, message_event_id
from oddstui.recording.manifest import Manifest
from oddstui.recording.records import FeedMessage, JsonObject, Record, Snapshot

MAX_WORKERS = 8
"""The most processes a backtest shares its events among."""


class Share:
    """Share `index` of `count`: `take` gives the part of each record that is its.
    `messages`: event id -> its messages in the recording, where known; `sizes`: event id -> the
    bytes of those messages, where known (then the events are dealt by these)."""

    def __init__(self, index: int, count: int, messages: Mapping[int, int] | None = None,
                 sizes: Mapping[int, int] | None = None) -> None:
        if not 0 <= index < count:
            raise ValueError(f"share {index} of {count} does not exist")
        self.index = index
        self.count = count
        self._by_size = sizes is not None
        self._weights = dict((sizes if sizes is not None else messages) or {})
        """event id -> its work: its bytes, or its messages."""
        self._owner: dict[int | None, int] = {None: 0}
        """event id -> its share. A message with no readable event id goes to share 0, so it
        is still applied, or counted as malformed, once."""
        self._work = [0] * count
        """Each share's work so far (bytes, or messages): what it was dealt, and its work as it
        comes."""
        self._deal(self._weights)

    def __reduce__(
        self,
    ) -> tuple[type[Share], tuple[int, int, dict[int, int] | None, dict[int, int] | None]]:
        # As dealt before any record.
        if self._by_size:
            return Share, (self.index, self.count, None, self._weights)
        return Share, (self.index, self.count, self._weights, None)

    def take(self, record: Record) -> Record | None:
        """The part of `record` that is this share's, or None."""
        if isinstance(record, FeedMessage):
            event_id = _event_id(record)
            owner = self._owner.get(event_id)
            if owner is None:
                owner = self._owner_of(event_id, 0)
            if event_id not in self._weights:  # not dealt by its count: it counts as it comes
                self._work[owner] += (len(record.text) or 1) if self._by_size else 1
            return record if owner == self.index else None
        if isinstance(record, Snapshot):
            weights = {_event_key(raw): _bookmakers(raw) for raw in record.odds}
            self._deal({event_id: w for event_id, w in weights.items() if event_id is not None})
            return Snapshot(
                record.time,
                tuple(raw for raw in record.events if self._mine(raw)),
                tuple(raw for raw in record.odds if self._mine(raw)),
            )
        return record  # a gap

    def _deal(self, weights: Mapping[int, int]) -> None:
        """The events not dealt yet, the heaviest first (ties in the order given)."""
        new = [event_id for event_id in weights if event_id not in self._owner]
        for event_id in sorted(new, key=lambda e: -weights[e]):
            self._owner_of(event_id, weights[event_id])

    def _mine(self, raw: JsonObject) -> bool:
        return self._owner_of(_event_key(raw), 0) == self.index

    def _owner_of(self, event_id: int | None, weight: int) -> int:
        """The event's share: dealt now, with `weight`, to the share with least work, when it
        has none yet."""
        owner = self._owner.get(event_id)
        if owner is None:
            work = self._work
            owner = self._owner[event_id] = work.index(min(work))
            work[owner] += weight
        return owner


def shares_of(manifest: Manifest, count: int) -> list[Share]:
    """The recording's events in `count` shares, dealt by the manifest's counts."""
    messages, sizes = manifest.event_messages(), manifest.event_sizes()
    return [Share(index, count, messages, sizes) for index in range(count)]


def _event_key(raw: JsonObject) -> int | None:
    return as_event_id(raw.get("id"))


def _bookmakers(raw: JsonObject) -> int:
    bookmakers = raw.get("bookmakers")
    return len(bookmakers) if isinstance(bookmakers, dict | list) else 0


def _event_id(message: FeedMessage) -> int | None:
    if message.text:
        return message_event_id(message.text)
    return as_event_id(message.message.get("id"))
