"""Where the relay's stream comes from (the upstream feed, or a NATS stream) and where it is
published besides (a NATS stream), as tasks that start and stop together."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from oddstui.relay.options import EMBEDDED, RelayOptions, RelayStartError, RelayUsageError
from oddstui.relay.relay import Relay

log = logging.getLogger("oddstui.relay")
STOP_TIMEOUT = 5.0
CONNECT_TIMEOUT = 10.0


class Sources:
    def __init__(self) -> None:
        self._tasks: list[asyncio.Task[Any]] = []
        self._stops: list[Callable[[], Any]] = []
        self._closers: list[Callable[[], Any]] = []
        self._failed = asyncio.Event()
        self._stopping = False
        self.ready = asyncio.Event()  # the relay may serve: its stream has a position
        self._helpers: list[asyncio.Task[None]] = []

    def add(self, name: str, job: Coroutine[Any, Any, Any], stop: Callable[[], Any]) -> None:
        task = asyncio.create_task(job, name=name)
        task.add_done_callback(self._ended)
        self._tasks.append(task)
        self._stops.append(stop)

    def ready_when(self, event: asyncio.Event) -> None:
        async def mirror() -> None:
            await event.wait()
            self.ready.set()

        self._helpers.append(asyncio.create_task(mirror()))

    def on_stop(self, close: Callable[[], Any]) -> None:
        """Run at `stop()` once the tasks are over, last added first (a NATS connection, then
        its server)."""
        self._closers.append(close)

    def _ended(self, task: asyncio.Task[Any]) -> None:
        if self._stopping or task.cancelled():
            return
        error = task.exception()
        log.error("%s stopped: %s", task.get_name(), error if error else "ended")
        self._failed.set()

    async def failed(self) -> None:
        await self._failed.wait()

    def status(self) -> int:
        return 1 if self._failed.is_set() else 0

    async def stop(self) -> None:
        self._stopping = True
        for helper in self._helpers:
            helper.cancel()
        for stop in reversed(self._stops):
            await _call(stop)
        if self._tasks:
            _, pending = await asyncio.wait(self._tasks, timeout=STOP_TIMEOUT)
            for task in pending:
                task.cancel()
        for close in reversed(self._closers):
            await _call(close)


async def _call(hook: Callable[[], Any]) -> None:
    with contextlib.suppress(Exception):
        result = hook()
        if isinstance(result, Awaitable):
            await asyncio.wait_for(result, STOP_TIMEOUT)


async def start_sources(relay: Relay, options: RelayOptions) -> Sources:
    """Start the relay's source (and publisher); raises `RelayStartError` if NATS is out of
    reach. Stop them with `Sources.stop()`."""
    sources = Sources()
    try:
        if options.from_nats:
            await _consume(sources, relay, options, options.from_nats)
        else:
            if options.nats:
                await _publish(sources, relay, options, options.nats)
            _follow_upstream(sources, relay, options)
    except BaseException:
        await sources.stop()
        raise
    return sources


def _follow_upstream(sources: Sources, relay: Relay, options: RelayOptions) -> None:
    from oddstui.relay.upstream import upstream_client

    client = upstream_client(relay, options.upstream, options.key, options.markets)
    sources.add("the upstream feed", client.run(), client.stop)
    sources.ready_when(relay.started)


async def _publish(sources: Sources, relay: Relay, options: RelayOptions, url: str) -> None:
    nats_bus = _nats_bus()
    if url == EMBEDDED:
        from oddstui.relay.nats_server import NatsServer, NatsServerError

        server = NatsServer()
        sources.on_stop(lambda: asyncio.to_thread(server.stop))
        try:
            url = await asyncio.to_thread(server.start)
        except NatsServerError as error:
            raise RelayStartError(f"--nats embedded: {error}") from None
        log.warning("embedded NATS server at %s", url)
    nc = await _connect(nats_bus, url, None, "--nats")
    sources.on_stop(nc.close)
    js = nc.jetstream()
    prefix = options.stream.lower()
    await nats_bus.ensure_stream(js, options.stream, prefix, options.replay_window)
    publisher = nats_bus.NatsPublisher(nc, prefix, relay.places, lambda: relay.complete_markets)
    relay.listeners.append(publisher)
    sources.add("the NATS publisher", publisher.run(), publisher.stop)


async def _consume(sources: Sources, relay: Relay, options: RelayOptions, url: str) -> None:
    nats_bus = _nats_bus()
    nc = await _connect(nats_bus, url, relay, "--from-nats")
    sources.on_stop(nc.close)
    consumer = nats_bus.NatsConsumer(relay, nc.jetstream(), options.stream, options.stream.lower())
    sources.add("the NATS stream", consumer.run(), consumer.stop)
    sources.ready_when(consumer.ready)


def _nats_bus() -> Any:
    try:
        from oddstui.relay import nats_bus
    except ImportError:
        raise RelayUsageError("NATS needs nats-py: pip install 'oddstui[nats]'") from None
    return nats_bus


async def _connect(nats_bus: Any, url: str, relay: Relay | None, flag: str) -> Any:
    try:
        return await asyncio.wait_for(nats_bus.connect(url, relay), CONNECT_TIMEOUT)
    except Exception as error:  # noqa: BLE001 - any failure to connect is one line
        why = str(error) or type(error).__name__
        raise RelayStartError(f"{flag}: cannot connect to the NATS server ({why})") from None
