"""The feed's serving side for any source of odds changes: handshake, one connection per key,
welcome and `lastSeq` replay, fan-out by filter, and shutdown.

The built-in service feeds it from its world (`FeedHub` in hub.py); `oddstui relay` feeds it from
an upstream feed or a NATS stream. Consistency rests on one rule: the source changes only between
awaits, and a connection is registered and given its welcome and replay in one synchronous block.
So a connection that opens with `lastSeq=S` gets every change after S exactly once: those already
journaled through the replay, later ones live.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Collection, Sequence
from typing import Any, Protocol

from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket

from oddstui.server.accounts import Account, Accounts
from oddstui.server.feed.connection import GOING_AWAY, REPLACED, FeedConnection
from oddstui.server.feed.frames import FrameCache, sink_of
from oddstui.server.feed.handshake import Denied, admit, deny
from oddstui.server.feed.logs import quiet_denials
from oddstui.server.feed.messages import (
    DELETED,
    RESYNC_AHEAD,
    RESYNC_TOO_OLD,
    resync_text,
    welcome_text,
)
from oddstui.server.feed.params import ODDS, FeedFilter
from oddstui.server.feed.stall import STALL_LIMIT, transport_of

log = logging.getLogger("oddstui.service.feed")

QUEUE_LIMIT = 4 * 1024 * 1024  # characters queued per connection before it is a slow consumer
# Tests shrink the bound through the environment, so that a stalled client overflows quickly.
QUEUE_LIMIT_ENV = "ODDSTUI_FEED_QUEUE_LIMIT"
# Seconds a socket may hold bytes its client does not take before it is closed 4008 (stall.py);
# tests raise it to meet a socket that never drains at shutdown.
STALL_LIMIT_ENV = "ODDSTUI_FEED_STALL_LIMIT"
FRAME_LIMIT = 256 * 1024  # a tick's frame is split beyond this, for clients' message limits
SHUTDOWN_TIMEOUT = 1.0  # a client that takes no close frame in a second is not reading
CLOSE_TIMEOUT = 10.0  # how long a close may wait for a client that does not read

Where = tuple[str, str, str]
"""An event's sport slug, league slug and wire status, as the filters see it. A source that does
not know them gives empty strings: the event then reaches only clients that do not filter on
them."""


class Change(Protocol):
    """One journaled odds change: the (event, bookie) pair that changed at `seq`."""

    @property
    def seq(self) -> int: ...

    @property
    def kind(self) -> str: ...

    @property
    def event_id(self) -> int: ...

    @property
    def bookie(self) -> str: ...


class Renderer(Protocol):
    """Wire texts for one fan-out (a tick or a replay), cached per distinct market filter."""

    def text(self, change: Any, market_key: frozenset[str]) -> str: ...


class ChangeSource(Protocol):
    """What the core reads: the current seq, the replay, where events are, and message texts."""

    @property
    def seq(self) -> int: ...

    def replay_since(self, last_seq: int) -> Sequence[Any] | None:
        """The latest change per (event, bookie) after `last_seq` in seq order; None when
        `last_seq` is outside the replay window."""
        ...

    def where(self, event_id: int) -> Where | None: ...

    def renderer(self) -> Renderer: ...


class FeedCore:
    """The WebSocket feed at `{base}/ws` over a `ChangeSource` and an `Accounts`."""

    def __init__(
        self,
        source: ChangeSource,
        accounts: Accounts,
        *,
        queue_limit: int | None = None,
        frame_limit: int = FRAME_LIMIT,
        close_timeout: float = CLOSE_TIMEOUT,
        welcome_fields: Callable[[], dict[str, Any]] | None = None,
        market_names: Collection[str] | None = None,
    ) -> None:
        self._source = source
        self._accounts = accounts
        self._queue_limit = queue_limit or _queue_limit_from_env()
        self._stall_limit = _stall_limit_from_env()
        self._frame_limit = frame_limit
        self._close_timeout = close_timeout
        self._welcome_fields = welcome_fields
        # The source's market catalog (None: it cannot tell, so any printable name is taken).
        self._known_markets = (
            None if market_names is None else frozenset(name.casefold() for name in market_names)
        )
        self._by_key: dict[str, FeedConnection] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._dirty: set[FeedConnection] = set()
        self._flush_handle: asyncio.Handle | None = None
        self._stopping = False
        quiet_denials()

    def routes(self) -> list[BaseRoute]:
        return [WebSocketRoute("/ws", self.endpoint)]

    @property
    def connections(self) -> int:
        return len(self._by_key)

    # -- the handshake -------------------------------------------------------------------------

    async def endpoint(self, websocket: WebSocket) -> None:
        try:
            key, account, feed_filter = admit(
                websocket.query_params, self._accounts, self._known_markets
            )
        except Denied as denial:
            await deny(websocket, denial)
            return
        try:
            await websocket.accept()
        except Exception:  # the client left during the handshake
            return
        connection = FeedConnection(
            websocket,
            key,
            feed_filter,
            queue_limit=self._queue_limit,
            frame_limit=self._frame_limit,
            close_timeout=self._close_timeout,
            transport=transport_of(websocket.scope),
            stall_limit=self._stall_limit,
            sink=sink_of(websocket.scope),
        )
        self._open(connection, account)
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            await connection.run()
        finally:
            self._tasks.discard(task)
            self._dirty.discard(connection)
            if self._by_key.get(key) is connection:
                del self._by_key[key]

    def _open(self, connection: FeedConnection, account: Account) -> None:
        """Register, then queue welcome and replay; synchronous, so no change slips between."""
        older = self._by_key.get(connection.key)
        if older is not None:
            older.close(*REPLACED)
        self._by_key[connection.key] = connection
        if self._stopping:
            connection.close(*GOING_AWAY)
            return
        source = self._source
        seq = source.seq
        feed_filter = connection.filter
        selection = account.selection
        extra = self._welcome_fields() if self._welcome_fields is not None else None
        connection.add(welcome_text(feed_filter, selection, seq, extra))
        if feed_filter.last_seq is not None and feed_filter.wants(ODDS):
            if feed_filter.last_seq > seq:
                connection.add(resync_text(RESYNC_AHEAD, seq))
            else:
                changes = source.replay_since(feed_filter.last_seq)
                if changes is None:
                    connection.add(resync_text(RESYNC_TOO_OLD, seq))
                else:
                    renderer = source.renderer()
                    books = set(selection)
                    connection.add_all(
                        renderer.text(change, connection.market_key)
                        for change in changes
                        if self._odds_wanted(feed_filter, books, change)
                    )
        connection.flush(allowance=True)

    # -- fan-out ---------------------------------------------------------------------------------

    def wants_odds(self) -> bool:
        """Whether any open connection takes odds (so a source can skip building changes)."""
        return any(c.filter.wants(ODDS) and not c.closing for c in self._by_key.values())

    def publish_odds(self, changes: Sequence[Any]) -> None:
        """Send each connection the changes its filters and selection take, in seq order."""
        listeners = [c for c in self._by_key.values() if c.filter.wants(ODDS) and not c.closing]
        if not listeners or not changes:
            return
        renderer = self._source.renderer()
        # Connections with the same filters and selection share one list of texts.
        shared: dict[tuple[FeedFilter, frozenset[str]], list[str]] = {}
        for connection in listeners:
            account = self._accounts.get(connection.key)
            books = frozenset(account.selection) if account is not None else frozenset()
            key = (connection.match_key, books)
            texts = shared.get(key)
            if texts is None:
                feed_filter = connection.filter
                texts = shared[key] = [
                    renderer.text(change, connection.market_key)
                    for change in changes
                    if self._odds_wanted(feed_filter, books, change)
                ]
            if texts:
                connection.add_all(texts)
                self._mark(connection)

    def publish_event(
        self,
        channel: str,
        event_id: int,
        where: Where,
        statuses: tuple[str, ...],
        message: str | Callable[[], str],
    ) -> None:
        """A score or status message to the connections on `channel` whose filters match.

        `statuses` are the event's statuses the message concerns (both ends of a transition).
        `message` is its text, or a function that makes it (called only if someone takes it).
        """
        text: str | None = None
        for connection in self._by_key.values():
            feed_filter = connection.filter
            if not feed_filter.wants(channel):
                continue
            if not feed_filter.matches_event(where[0], where[1], event_id):
                continue
            if not feed_filter.matches_status(*statuses):
                continue
            if text is None:
                text = message() if callable(message) else message
            connection.add(text)
            self._mark(connection)

    def filters_by_place(self) -> bool:
        """True when some connection filters by sport, league or status."""
        return any(
            c.filter.sports or c.filter.leagues or c.filter.status for c in self._by_key.values()
        )

    def broadcast(self, text: str, *, odds_only: bool = False) -> None:
        """One message to every open connection (or to those taking odds)."""
        for connection in self._by_key.values():
            if connection.closing or (odds_only and not connection.filter.wants(ODDS)):
                continue
            connection.add(text)
            self._mark(connection)

    def resync_all(self, reason: str) -> None:
        """The source lost continuity: every odds client must rebuild from a REST snapshot."""
        self.broadcast(resync_text(reason, self._source.seq), odds_only=True)

    def _odds_wanted(
        self, feed_filter: FeedFilter, books: frozenset[str] | set[str], change: Any
    ) -> bool:
        if change.bookie not in books:
            return False
        where = self._source.where(change.event_id)
        if where is None:  # gone from the source
            return change.kind == DELETED
        if not feed_filter.matches_event(where[0], where[1], change.event_id):
            return False
        # A removal always reaches a client that may hold the event, whatever its status.
        return change.kind == DELETED or feed_filter.matches_status(where[2])

    # -- ticks and shutdown --------------------------------------------------------------------

    def _mark(self, connection: FeedConnection) -> None:
        self._dirty.add(connection)
        if self._flush_handle is None:
            # Runs right after the source's burst returns: one frame per connection per burst.
            self._flush_handle = asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_handle = None
        dirty, self._dirty = self._dirty, set()
        cache = FrameCache(self._frame_limit)  # connections given the same texts share frames
        for connection in dirty:
            connection.flush(cache)

    async def shutdown(self) -> None:
        """Close every connection with 1001 and wait (bounded) until they are gone."""
        self._stopping = True
        for connection in list(self._by_key.values()):
            connection.close(*GOING_AWAY)
        tasks = [task for task in self._tasks if not task.done()]
        if tasks:
            await asyncio.wait(tasks, timeout=SHUTDOWN_TIMEOUT)


def _queue_limit_from_env() -> int:
    text = os.environ.get(QUEUE_LIMIT_ENV, "")
    if text.isascii() and text.isdigit() and int(text) >= 1024:
        return int(text)
    if text:
        log.warning("%s must be an integer >= 1024; using %d", QUEUE_LIMIT_ENV, QUEUE_LIMIT)
    return QUEUE_LIMIT


def _stall_limit_from_env() -> float:
    text = os.environ.get(STALL_LIMIT_ENV, "")
    try:
        value = float(text) if text else STALL_LIMIT
    except ValueError:
        value = -1.0
    if not 1.0 <= value < 1e9:
        log.warning("%s must be a number of seconds >= 1; using %g", STALL_LIMIT_ENV, STALL_LIMIT)
        return STALL_LIMIT
    return value
