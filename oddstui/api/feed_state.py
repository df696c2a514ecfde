"""What the feed client shows the app: its state, its counters, and one immutable status view."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum


class FeedState(StrEnum):
    CONNECTING = "connecting"
    """A handshake is under way."""
    LIVE = "live"
    """Streaming; the book is current."""
    REPLAYING = "replaying"
    """Resumed with lastSeq; the compacted replay is arriving and is applied in one step."""
    RESYNCING = "resyncing"
    """Rebuilding from a REST snapshot; live messages are buffered meanwhile."""
    STALE = "stale"
    """Connected, but the data may be behind: no frames for a while, or a resync is waiting for
    REST budget. Not dead: the socket stays open."""
    REPLACED = "replaced"
    """Another client took the key's one connection. Stopped until `resume()`."""
    OFFLINE = "offline"
    """No connection: waiting to retry, or stopped after a fatal error (see `detail`)."""
    UNAUTHORIZED = "unauthorized"
    """401 at the handshake: the key was refused. Stopped: retrying will not help."""
    NOT_IN_PLAN = "not in plan"
    """403 at the handshake: the key is good but its plan has no feed (a free key). Stopped;
    the desk refreshes what is on screen over REST instead."""


STOPPED_STATES = frozenset({FeedState.REPLACED, FeedState.UNAUTHORIZED, FeedState.NOT_IN_PLAN})


@dataclass(slots=True)
class FeedCounters:
    messages: int = 0
    """Odds, score and status messages applied to the book."""
    duplicates: int = 0
    """Odds messages dropped because their seq was at or below the cursor."""
    malformed: int = 0
    """Lines that were not JSON, had an unknown type, or did not fit the models."""
    resyncs: int = 0
    """Full REST snapshots installed (start, resync_required, a restarted service)."""
    loads: int = 0
    """Snapshots of events that `track()` added while streaming."""
    reconnects: int = 0
    """Connections opened after the first one."""
    connects: int = 0
    """Handshakes attempted, successful or not."""
    frames: int = 0
    """Text frames received."""

    def copy(self) -> FeedCounters:
        return replace(self)


@dataclass(frozen=True, slots=True)
class FeedStatus:
    """A consistent view for the status bar; build one with `FeedClient.status()`."""

    state: FeedState
    detail: str
    """Plain text for the user: why the state is what it is (never holds the API key)."""
    counters: FeedCounters
    last_seq: int | None
    """The cursor: every odds message at or below it is reflected in the book."""
    last_receive: float | None
    """`time.monotonic()` when the last frame arrived; drives the data-age display."""
    scores_stale: bool
    """Scores and statuses may be behind (they are not replayed): refetch GET /events."""
    generation: int
    """Increases with every connection."""
    relay: str | None = None
    """Behind an `oddstui relay`: the state of the relay's upstream (`live`, `offline`, ...)."""
    relay_detail: str = ""
