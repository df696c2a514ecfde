"""The feed hub: handshake, one connection per key, fan-out of world changes, replay, shutdown.

Consistency rests on one rule: the world mutates only inside `step()`, which never awaits, and
the hub reads the journal and registers a connection in one synchronous block. So a connection
that opens with `lastSeq=S` (for instance the `X-Service-Seq` of a REST snapshot) gets every
change after S exactly once: those already journaled through the replay, later ones live.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
from collections.abc import Callable
from typing import Any, TypeVar

from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket

from oddstui.service.feed.connection import GOING_AWAY, REPLACED, FeedConnection
from oddstui.service.feed.fanout import TickCache
from oddstui.service.feed.handshake import Denied, admit, deny
from oddstui.service.feed.logs import quiet_denials
from oddstui.service.feed.messages import (
    DELETED,
    RESYNC_AHEAD,
    RESYNC_TOO_OLD,
    resync_text,
    score_text,
    status_text,
    welcome_text,
)
from oddstui.service.feed.params import ODDS, SCORES, STATUS, FeedFilter
from oddstui.service.feed.source import OddsChange, WorldView
from oddstui.service.world.model import LIVE, PENDING, Event

log = logging.getLogger("oddstui.service.feed")
_Listener = TypeVar("_Listener", bound=Callable[..., None])


def _guarded(method: _Listener) -> _Listener:
    """A listener the world calls inside `step()`: a feed bug must never stop the world."""

    @functools.wraps(method)
    def guarded(*args: Any) -> None:
        try:
            method(*args)
        except Exception:
            log.exception("feed listener %s failed", method.__name__)

    return guarded  # type: ignore[return-value]


QUEUE_LIMIT = 4 * 1024 * 1024  # characters queued per connection before it is a slow consumer
# Tests shrink the bound through the environment, so that a stalled client overflows quickly.
QUEUE_LIMIT_ENV = "ODDSTUI_FEED_QUEUE_LIMIT"
FRAME_LIMIT = 256 * 1024  # a tick's frame is split beyond this, for clients' message limits
SHUTDOWN_TIMEOUT = 1.0  # a client that takes no close frame in a second is not reading
CLOSE_TIMEOUT = 10.0  # how long a close may wait for a client that does not read


class FeedHub:
    """The WebSocket feed at `{base}/ws` over a `World` and the service's `Accounts`."""

    def __init__(
        self,
        world: Any,
        accounts: Any,
        *,
        queue_limit: int | None = None,
        frame_limit: int = FRAME_LIMIT,
        close_timeout: float = CLOSE_TIMEOUT,
    ) -> None:
        self._view = WorldView(world)
        self._accounts = accounts
        self._queue_limit = queue_limit or _queue_limit_from_env()
        self._frame_limit = frame_limit
        self._close_timeout = close_timeout
        self._by_key: dict[str, FeedConnection] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._dirty: set[FeedConnection] = set()
        self._flush_handle: asyncio.Handle | None = None
        self._stopping = False
        # Events seen live, so that a status filter also sees a live match being cancelled.
        self._was_live = {event.id for event in world.events.values() if event.status == LIVE}
        self._last_scores: dict[int, dict[str, Any]] = {}  # by live event: the last sent
        world.subscribe(self)
        quiet_denials()

    def routes(self) -> list[Any]:
        return [WebSocketRoute("/ws", self.endpoint)]

    @property
    def connections(self) -> int:
        return len(self._by_key)

    # -- the handshake -------------------------------------------------------------------------

    async def endpoint(self, websocket: WebSocket) -> None:
        try:
            key, account, feed_filter = admit(websocket.query_params, self._accounts)
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

    def _open(self, connection: FeedConnection, account: Any) -> None:
        """Register, then queue welcome and replay; synchronous, so no change slips between."""
        older = self._by_key.get(connection.key)
        if older is not None:
            older.close(*REPLACED)
        self._by_key[connection.key] = connection
        if self._stopping:
            connection.close(*GOING_AWAY)
            return
        seq = self._view.seq
        feed_filter = connection.filter
        selection = account.selection
        connection.add(welcome_text(feed_filter, selection, seq))
        if feed_filter.last_seq is not None and feed_filter.wants(ODDS):
            if feed_filter.last_seq > seq:
                connection.add(resync_text(RESYNC_AHEAD, seq))
            else:
                changes = self._view.replay_since(feed_filter.last_seq)
                if changes is None:
                    connection.add(resync_text(RESYNC_TOO_OLD, seq))
                else:
                    cache = TickCache(self._view)
                    books = set(selection)
                    connection.add_all(
                        cache.text(change, connection.market_key)
                        for change in changes
                        if self._odds_wanted(feed_filter, books, change)
                    )
        connection.flush(allowance=True)

    # -- the world's listener interface (called inside `World.step()`) ----------------------------

    @_guarded
    def on_odds(self, entries: Any) -> None:
        listeners = [c for c in self._by_key.values() if c.filter.wants(ODDS) and not c.closing]
        if not listeners:
            return
        changes = self._view.changes(entries)
        cache = TickCache(self._view)
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
                    cache.text(change, connection.market_key)
                    for change in changes
                    if self._odds_wanted(feed_filter, books, change)
                ]
            if texts:
                connection.add_all(texts)
                self._mark(connection)

    @_guarded
    def on_score(self, event: Event) -> None:
        # The world reports a step's score activity; a deuce won back within one step nets to
        # no change, and only real changes are sent.
        scores = event.scores.to_wire()
        if self._last_scores.get(event.id) == scores:
            return
        self._last_scores[event.id] = scores
        text: str | None = None
        for connection in self._by_key.values():
            feed_filter = connection.filter
            if not feed_filter.wants(SCORES) or not self._event_wanted(feed_filter, event):
                continue
            if not feed_filter.matches_status(event.status):
                continue
            if text is None:
                text = score_text(event.id, self._view.now_iso(), scores)
            connection.add(text)
            self._mark(connection)

    @_guarded
    def on_status(self, event: Event) -> None:
        # A transition is seen by a status filter that matches either end of it.
        before = _previous_status(event.status, event.id in self._was_live)
        if event.status == LIVE:
            self._was_live.add(event.id)
        else:
            self._was_live.discard(event.id)
            self._last_scores.pop(event.id, None)
        text: str | None = None
        for connection in self._by_key.values():
            feed_filter = connection.filter
            if not feed_filter.wants(STATUS) or not self._event_wanted(feed_filter, event):
                continue
            if not feed_filter.matches_status(event.status, *before):
                continue
            if text is None:
                text = status_text(
                    event.id, self._view.now_iso(), event.status, event.scores.to_wire()
                )
            connection.add(text)
            self._mark(connection)

    # -- filters -------------------------------------------------------------------------------

    def _event_wanted(self, feed_filter: FeedFilter, event: Event) -> bool:
        return feed_filter.matches_event(event.sport.slug, event.league.slug, event.id)

    def _odds_wanted(
        self, feed_filter: FeedFilter, books: frozenset[str] | set[str], change: OddsChange
    ) -> bool:
        if change.bookie not in books:
            return False
        event = self._view.event(change.event_id)
        if event is None:
            return change.kind == DELETED
        if not self._event_wanted(feed_filter, event):
            return False
        # A removal always reaches a client that may hold the event, whatever its status.
        return change.kind == DELETED or feed_filter.matches_status(event.status)

    # -- ticks and shutdown --------------------------------------------------------------------

    def _mark(self, connection: FeedConnection) -> None:
        self._dirty.add(connection)
        if self._flush_handle is None:
            # Runs right after the world's step returns: one frame per connection per tick.
            self._flush_handle = asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_handle = None
        dirty, self._dirty = self._dirty, set()
        for connection in dirty:
            connection.flush()

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


def _previous_status(status: str, was_live: bool) -> tuple[str, ...]:
    if status == LIVE:
        return (PENDING,)
    if status == PENDING:
        return ()
    return (LIVE,) if was_live else (PENDING,)
