"""Where the relay's stream comes from (the upstream feed, or a NATS stream) and where it is
published besides (a NATS stream), as tasks that start and stop together."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from oddstui.relay.options import RelayOptions
from oddstui.relay.relay import Relay

log = logging.getLogger("oddstui.relay")
STOP_TIMEOUT = 5.0


class Sources:
    def __init__(self) -> None:
        self._tasks: list[asyncio.Task[Any]] = []
        self._stops: list[Callable[[], Any]] = []
        self._failed = asyncio.Event()
        self._stopping = False

    def add(self, name: str, job: Coroutine[Any, Any, Any], stop: Callable[[], Any]) -> None:
        task = asyncio.create_task(job, name=name)
        task.add_done_callback(self._ended)
        self._tasks.append(task)
        self._stops.append(stop)

    def on_stop(self, stop: Callable[[], Any]) -> None:
        """Run at `stop()` (after the tasks' own stops), e.g. closing a NATS connection."""
        self._stops.append(stop)

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
        for stop in self._stops:
            with contextlib.suppress(Exception):
                result = stop()
                if isinstance(result, Awaitable):
                    await asyncio.wait_for(result, STOP_TIMEOUT)
        if self._tasks:
            _, pending = await asyncio.wait(self._tasks, timeout=STOP_TIMEOUT)
            for task in pending:
                task.cancel()


async def start_sources(relay: Relay, options: RelayOptions) -> Sources:
    from oddstui.relay.upstream import upstream_client

    sources = Sources()
    client = upstream_client(relay, options.upstream, options.key, options.markets)
    sources.add("the upstream feed", client.run(), client.stop)
    return sources
