"""The relay's heart: what it relays, its replay window, and the feed it serves downstream.

Its input comes from one source at a time (the upstream feed client, or a NATS stream) through
`odds`, `event_message`, `restart` and `set_upstream`. All of them run on the event loop and
never await; messages of one burst (one upstream frame) are fanned out together once the burst
is over. Listeners (the NATS publisher) see every accepted message in order.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, Protocol

from oddstui.relay.journal import Relayed, RelayJournal
from oddstui.relay.locating import Locate, Locator
from oddstui.relay.places import EventPlaces
from oddstui.relay.render import LineRenderer
from oddstui.server.accounts import Accounts
from oddstui.server.feed.core import FeedCore
from oddstui.server.feed.messages import dumps
from oddstui.server.feed.params import SCORES, STATUS


class RelayListener(Protocol):
    def on_odds(self, change: Relayed) -> None: ...

    def on_event_message(self, channel: str, event_id: int, line: str) -> None: ...

    def on_restart(self, seq: int, reason: str) -> None: ...

    def on_upstream(self, state: str, detail: str) -> None: ...


class _EventLine:
    __slots__ = ("channel", "event_id", "statuses", "line")

    def __init__(self, channel: str, event_id: int, statuses: tuple[str, ...], line: str) -> None:
        self.channel = channel
        self.event_id = event_id
        self.statuses = statuses
        self.line = line


class Relay:
    """Implements `ChangeSource` for its `FeedCore` (`self.feed`)."""

    def __init__(
        self,
        accounts: Accounts,
        markets: Sequence[str],
        *,
        window: float = 600.0,
        max_entries: int = 200_000,
    ) -> None:
        self.journal = RelayJournal(window, max_entries)
        self.places = EventPlaces()
        self.carried = frozenset(name.casefold() for name in markets)
        # What the source last said: each odds message lists all of the bookie's markets (the
        # relay cuts a line to a client's filter, which keeps it complete for that filter).
        self.complete_markets = False
        self.upstream_state = "connecting"
        self.upstream_detail = "starting"
        self.started = asyncio.Event()  # set at the first restart: the stream has a position
        self.listeners: list[RelayListener] = []
        self.relayed = 0  # odds messages accepted
        self.duplicates = 0  # odds messages at or below the journal's seq, dropped
        self._pending: list[Relayed | _EventLine] = []
        self._flush_handle: asyncio.Handle | None = None
        self.locator: Locator | None = None
        # Its desks may ask only for the markets it carries (as the service refuses names it
        # never quotes): any other name would stream nothing but empty messages.
        self.feed = FeedCore(
            self, accounts, welcome_fields=self._welcome_fields, market_names=markets
        )

    # -- ChangeSource ------------------------------------------------------------------------------

    @property
    def seq(self) -> int:
        return self.journal.seq

    def replay_since(self, last_seq: int) -> list[Relayed] | None:
        return self.journal.replay_since(last_seq)

    def where(self, event_id: int) -> tuple[str, str, str]:
        return self.places.where(event_id)

    def renderer(self) -> LineRenderer:
        return LineRenderer(self.carried)

    # -- input -------------------------------------------------------------------------------------

    def locate_with(self, locate: Locate) -> None:
        """Ask `locate(event_id)` where an event the relay cannot place is (see locating.py)."""
        self.locator = Locator(locate, self._schedule)

    def odds(self, change: Relayed) -> None:
        if not self.journal.append(change):
            self.duplicates += 1
            return
        self.relayed += 1
        self._place(change.event_id)
        self._pending.append(change)
        self._schedule()
        for listener in self.listeners:
            listener.on_odds(change)

    def event_message(self, channel: str, event_id: int, status: str | None, line: str) -> None:
        """A `score` (status None) or `status` message, passed on as `line`."""
        self._place(event_id)
        before = self.places.where(event_id)[2]
        if channel == STATUS and status is not None:
            self.places.set_status(event_id, status)
            statuses: tuple[str, ...] = (status, before) if before else (status,)
        else:
            channel = SCORES
            statuses = (before,)
        self._pending.append(_EventLine(channel, event_id, statuses, line))
        self._schedule()
        for listener in self.listeners:
            listener.on_event_message(channel, event_id, line)

    def restart(self, seq: int | None, reason: str) -> None:
        """The source starts over at `seq`: clients holding an older position must resync."""
        self.flush(force=True)
        had_stream = self.started.is_set()
        start = seq if seq is not None else 0
        self.journal.restart(start)
        self.started.set()
        if had_stream:
            self.feed.resync_all(f"the relay resynced with its upstream ({reason})")
        for listener in self.listeners:
            listener.on_restart(start, reason)

    def set_upstream(self, state: str, detail: str) -> None:
        if (state, detail) == (self.upstream_state, self.upstream_detail):
            return
        self.upstream_state, self.upstream_detail = state, detail
        self.feed.broadcast(dumps({"type": "relay", **self._upstream()}))
        for listener in self.listeners:
            listener.on_upstream(state, detail)

    def _upstream(self) -> dict[str, str]:
        return {"upstream": self.upstream_state, "detail": self.upstream_detail}

    def _welcome_fields(self) -> dict[str, Any]:
        fields: dict[str, Any] = {"relay": self._upstream()}
        if self.complete_markets:
            fields["complete_markets"] = True
        return fields

    # -- fan-out -----------------------------------------------------------------------------------

    def _place(self, event_id: int) -> None:
        if self.locator is not None and not self.places.where(event_id)[0]:
            self.locator.ask(event_id)

    def _held(self) -> bool:
        """Waiting for an event's place, which a client's sport, league or status filter needs."""
        return self.locator is not None and self.locator.busy and self.feed.filters_by_place()

    def _schedule(self) -> None:
        if self._flush_handle is None and self._pending and not self._held():
            self._flush_handle = asyncio.get_running_loop().call_soon(self.flush)

    def flush(self, *, force: bool = False) -> None:
        """Fan out what arrived since the last flush, in arrival order (unless held for a place,
        when the locator's answer schedules it again)."""
        if self._flush_handle is not None:
            self._flush_handle.cancel()
            self._flush_handle = None
        if not force and self._held():
            return
        pending, self._pending = self._pending, []
        batch: list[Relayed] = []
        for item in pending:
            if isinstance(item, Relayed):
                batch.append(item)
                continue
            if batch:
                self.feed.publish_odds(batch)
                batch = []
            self.feed.publish_event(
                item.channel,
                item.event_id,
                self.places.where(item.event_id),
                item.statuses,
                item.line,
            )
        if batch:
            self.feed.publish_odds(batch)
