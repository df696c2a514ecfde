"""The relay's stream on NATS JetStream: a publisher (a listener of the relay) and a consumer
(a source for another relay).

Subjects are `{prefix}.{odds|scores|status}.{sport}.{event id}` (sport `_` while unknown), and
`{prefix}.control` for the stream's own events: `restart` (the stream starts over at a seq, so
clients resync) and `relay` (the upstream's state). Odds messages carry their seq as the message
id, so a publisher that sends one twice is deduplicated. The stream keeps messages as long as
the relay's replay window (`max_age`): a consuming relay rebuilds its window from the stream when
it starts, so a client's `lastSeq` finds its place in the stream by the seq each message carries.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import nats
from nats.js.api import DeliverPolicy, StorageType, StreamConfig
from nats.js.errors import BadRequestError

from oddstui.api.messages import OddsMessage, iter_frame
from oddstui.relay.journal import Relayed
from oddstui.relay.places import EventPlaces
from oddstui.relay.relay import Relay
from oddstui.relay.upstream import UpstreamBook
from oddstui.server.feed.messages import dumps

try:
    from orjson import loads
except ImportError:  # pragma: no cover - depends on the environment
    from json import loads  # type: ignore[assignment]

log = logging.getLogger("oddstui.relay")
CONTROL = "control"
QUEUE_LIMIT = 200_000  # messages waiting for NATS before the oldest are dropped (and counted)
MAX_MESSAGES = 200_000  # as many as the relay's journal keeps
# One odds message in this many (and every other message) asks JetStream for its ack: parsing
# an ack per message was half the publisher's NATS work (10.5 against 5.3 ms of CPU per 1,000).
ACK_EVERY = 100


async def connect(url: str, relay: Relay | None = None) -> Any:
    """A NATS connection that reconnects for ever; its link state goes to `relay`'s clients."""

    async def down() -> None:
        if relay is not None:
            relay.set_upstream("offline", "the NATS link is down; reconnecting")

    async def up() -> None:
        if relay is not None:
            relay.set_upstream("live", "the NATS link is back")

    async def error(problem: Exception) -> None:
        log.warning("NATS: %s", problem)

    return await nats.connect(
        url,
        name="oddstui-relay",
        max_reconnect_attempts=-1,
        reconnect_time_wait=1,
        disconnected_cb=down,
        reconnected_cb=up,
        error_cb=error,
    )


async def ensure_stream(
    js: Any, stream: str, prefix: str, window: float, max_msgs: int = MAX_MESSAGES
) -> None:
    config = StreamConfig(
        name=stream,
        subjects=[f"{prefix}.>"],
        max_age=window,
        # No more than a relay's window holds: a consuming relay reads it all when it starts.
        max_msgs=max_msgs,
        duplicate_window=min(window, 120.0),
        storage=StorageType.FILE,
    )
    try:
        await js.add_stream(config)
    except BadRequestError:  # it exists with other settings: take ours
        await js.update_stream(config)


def subject(prefix: str, channel: str, sport: str, event_id: int) -> str:
    return f"{prefix}.{channel}.{sport or '_'}.{event_id}"


class NatsPublisher:
    """Everything the relay accepts, in order, onto the stream (a `RelayListener`).

    Messages go out with plain NATS publishes. nats-py's `publish_async` waits on a task per
    message, so a burst went out one message per turn of the event loop, one socket write each
    (a fifth of the publishing relay's time, and the tail of the NATS path's delay); plain
    publishes of a whole burst leave in one write. The stream still deduplicates by the
    `Nats-Msg-Id` header. The first odds message and one in `ACK_EVERY` after it, and every
    score, status and control message, carry one inbox of ours as their reply subject, where
    JetStream's acknowledgements are counted: a stream that refuses messages shows within
    `ACK_EVERY` of them, without an ack to parse for each.
    """

    def __init__(
        self,
        nc: Any,
        prefix: str,
        places: EventPlaces,
        complete_markets: Callable[[], bool] = lambda: False,
    ) -> None:
        self._complete_markets = complete_markets
        self._nc = nc
        self._inbox: str = nc.new_inbox()
        self._prefix = prefix
        self._places = places
        self._queue: deque[tuple[str, bytes, dict[str, str] | None, bool]] = deque()
        self._wake = asyncio.Event()
        self._stopped = False
        self.acknowledged = 0  # acks from the stream (for a duplicate too)
        self._odds = 0  # odds messages queued
        self.failed = 0
        self.dropped = 0

    def on_odds(self, change: Relayed) -> None:
        sport = self._places.where(change.event_id)[0]
        acked = self._odds % ACK_EVERY == 0
        self._odds += 1
        self._put(
            subject(self._prefix, "odds", sport, change.event_id),
            change.line.encode(),
            {"Nats-Msg-Id": str(change.seq)},
            acked,
        )

    def on_event_message(self, channel: str, event_id: int, line: str) -> None:
        sport = self._places.where(event_id)[0]
        self._put(subject(self._prefix, channel, sport, event_id), line.encode(), None)

    def on_restart(self, seq: int, reason: str) -> None:
        # The upstream's welcome came just before: consumers pass on what it said.
        complete = self._complete_markets()
        self._control(
            {"type": "restart", "seq": seq, "reason": reason, "complete_markets": complete}
        )

    def on_upstream(self, state: str, detail: str) -> None:
        self._control({"type": "relay", "upstream": state, "detail": detail})

    def _control(self, body: dict[str, Any]) -> None:
        self._put(f"{self._prefix}.{CONTROL}", dumps(body).encode(), None)

    def _put(
        self, name: str, data: bytes, headers: dict[str, str] | None, acked: bool = True
    ) -> None:
        if len(self._queue) >= QUEUE_LIMIT:
            self._queue.popleft()
            self.dropped += 1
        self._queue.append((name, data, headers, acked))
        self._wake.set()

    def stop(self) -> None:
        self._stopped = True
        self._wake.set()

    async def run(self) -> None:
        acks = await self._nc.subscribe(self._inbox, cb=self._acked)
        try:
            await self._publish()
        finally:
            with contextlib.suppress(Exception):
                await acks.unsubscribe()

    async def _publish(self) -> None:
        nc, reply = self._nc, self._inbox
        while self._queue or not self._stopped:  # what is queued still goes out at a stop
            if not self._queue:
                self._wake.clear()
                await self._wake.wait()
                continue
            name, data, headers, acked = self._queue.popleft()
            try:
                # Buffered by the client: it awaits (and writes) only when its buffer is full.
                await nc.publish(name, data, reply=reply if acked else "", headers=headers)
            except Exception as error:  # noqa: BLE001 - counted; the link reconnects by itself
                self.failed += 1
                log.warning("NATS publish failed: %s", error)
                await asyncio.sleep(0.1)

    async def _acked(self, message: Any) -> None:
        if b'"error"' in message.data:
            self.failed += 1
        else:
            self.acknowledged += 1


class NatsConsumer:
    """Feeds a relay from the stream: the whole retained stream first, then live."""

    def __init__(self, relay: Relay, js: Any, stream: str, prefix: str) -> None:
        self._relay = relay
        self._js = js
        self._stream = stream
        self._prefix = prefix
        self._book = UpstreamBook(relay)
        self._target = 0
        self._stop = asyncio.Event()
        self.ready = asyncio.Event()  # the retained stream is in: clients may resume now
        self.malformed = 0

    def stop(self) -> None:
        self._stop.set()

    async def run(self) -> None:
        info = await self._js.stream_info(self._stream)
        self._target = int(info.state.last_seq or 0)
        subscription = await self._js.subscribe(
            f"{self._prefix}.>",
            stream=self._stream,
            ordered_consumer=True,
            deliver_policy=DeliverPolicy.ALL,
            cb=self._on_message,
        )
        try:
            await self._stop.wait()
        finally:
            with contextlib.suppress(Exception):
                await subscription.unsubscribe()

    async def _on_message(self, message: Any) -> None:
        relay = self._relay
        channel = message.subject[len(self._prefix) + 1 :].split(".", 1)[0]
        if channel == CONTROL:
            self._control(message.data)
        else:
            for item in iter_frame(message.data, time.monotonic(), True, quotes=False):
                if item is None:
                    self.malformed += 1
                    continue
                if isinstance(item, OddsMessage) and not relay.started.is_set():
                    # Joined after the stream's start was trimmed: complete from here on.
                    relay.restart(item.seq - 1, "joined the stream")
                self._book.apply(item)
        if not self.ready.is_set() and relay.started.is_set():
            if message.metadata.sequence.stream >= self._target:
                self.ready.set()

    def _control(self, data: bytes) -> None:
        try:
            body = loads(data)
            if body["type"] == "restart":
                self._relay.complete_markets = body.get("complete_markets") is True
                self._relay.restart(int(body["seq"]), str(body.get("reason", "")))
            elif body["type"] == "relay":
                self._relay.set_upstream(str(body["upstream"]), str(body.get("detail", "")))
        except (ValueError, KeyError, TypeError):
            self.malformed += 1
