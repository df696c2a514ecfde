"""One share of a recording's events, so that several processes can backtest it side by side.

Everything a backtest works out belongs to one event (its lines' best prices, arbitrages and
value bets, the alert rules on it), so the events can be shared out. The wall time is the
busiest share's, so the events are dealt to keep the shares' messages even: each event goes,
when first seen, to the share with the least work so far. The events of a snapshot are dealt
heaviest first, by how many bookmakers quote them (the rate of an event's messages follows its
bookmakers); a share's work is then counted one a message. Every process reads every record
in the same order and deals the same way, so they agree on who owns what without talking.
Each share still sees every record's time, so its clock is the recording's.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from oddstui.recording.records import FeedMessage, JsonObject, Record, Snapshot

MAX_WORKERS = 8
"""The most processes a backtest shares its events among."""


class Share:
    """Share `index` of `count`: `take` gives the part of each record that is its."""

    def __init__(self, index: int, count: int) -> None:
        if not 0 <= index < count:
            raise ValueError(f"share {index} of {count} does not exist")
        self.index = index
        self.count = count
        self._owner: dict[Any, int] = {}
        """event id -> the share that owns it."""
        self._work = [0] * count
        """Each share's work so far: messages, and the bookmakers of the events dealt it."""

    def __reduce__(self) -> tuple[type[Share], tuple[int, int]]:
        return Share, (self.index, self.count)  # a fresh share: none dealt yet

    def take(self, record: Record) -> Record | None:
        """The part of `record` that is this share's, or None."""
        if isinstance(record, FeedMessage):
            owner = self._owner_of(_event_id(record), 0)
            self._work[owner] += 1
            return record if owner == self.index else None
        if isinstance(record, Snapshot):
            self._deal(record.odds)
            return Snapshot(
                record.time,
                tuple(raw for raw in record.events if self._mine(raw)),
                tuple(raw for raw in record.odds if self._mine(raw)),
            )
        return record  # a gap

    def _deal(self, odds: tuple[JsonObject, ...]) -> None:
        weights: dict[Any, int] = {}
        for raw in odds:
            event_id = _key(raw.get("id"))
            if event_id not in self._owner:
                bookmakers = raw.get("bookmakers")
                weights[event_id] = len(bookmakers) if isinstance(bookmakers, dict) else 0
        for event_id in sorted(weights, key=lambda e: -weights[e]):  # stable: ties keep order
            self._owner_of(event_id, weights[event_id])

    def _mine(self, raw: JsonObject) -> bool:
        return self._owner_of(_key(raw.get("id")), 0) == self.index

    def _owner_of(self, event_id: Any, weight: int) -> int:
        """The event's share; an event not seen before goes to the share with least work (a
        record with no readable event id to share 0, so it is still applied, or counted as
        malformed, once)."""
        owner = self._owner.get(event_id)
        if owner is None:
            work = self._work
            owner = 0 if event_id is None else work.index(min(work))
            self._owner[event_id] = owner
            work[owner] += weight
        return owner


def _key(event_id: object) -> Any:
    """An event id as a dictionary key: the same event is the same key whether its id came as
    a number or as text; None for none readable."""
    try:
        return int(event_id)  # type: ignore[call-overload]
    except (TypeError, ValueError, OverflowError):
        return None


class _Id(msgspec.Struct, gc=False):
    id: Any = None


_decode_id = msgspec.json.Decoder(_Id).decode
# How an odds message begins, as the services send it: its id is then a top-level key (the text
# is JSON, checked when read), found without reading the rest of the message.
_ODDS_HEAD = re.compile(
    r'\{"type":"[a-z_]+","seq":\d+,(?:"timestamp":"[^"\\]*",)?'  # only scalars before the id
    r'"id":("?)(\d+)\1[,}]'
)


def _event_id(message: FeedMessage) -> Any:
    """The message's event id as `_key` has it, read from its text without parsing the rest
    into objects."""
    text = message.text
    if not text:
        return _key(message.message.get("id"))
    head = _ODDS_HEAD.match(text)
    if head is not None:
        return int(head[2])
    try:
        return _key(_decode_id(text).id)
    except msgspec.DecodeError:
        return None  # not an object: share 0 counts it as malformed
