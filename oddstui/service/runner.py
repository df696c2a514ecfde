"""Run a built service on a bound socket: uvicorn and the world's step loop on one event loop."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Callable, Iterator
from typing import Any

import uvicorn

from oddstui.service.app import BASE, create_app
from oddstui.service.context import ServiceContext
from oddstui.service.feed.upgrade import FeedUpgradeProtocol

log = logging.getLogger("oddstui.service")
# On SIGTERM, the feed gets this long to close its connections (1001), then requests in flight
# and sockets still flushing get GRACE seconds; clients that read take milliseconds for both.
FEED_SHUTDOWN_TIMEOUT = 1.5
GRACE = 1.0
TICK = 0.1  # uvicorn's housekeeping interval
POLL = 0.005  # how often shutdown looks whether connections have gone


class BindError(Exception):
    """The address cannot be bound; the message names the flag at fault."""


class QuickServer(uvicorn.Server):
    """uvicorn's server, made to stop as soon as it is told to.

    uvicorn polls its exit flag every 0.1 s, pauses 0.1 s at shutdown and then polls its
    connections every 0.1 s: up to 0.3 s of a prompt exit spent waiting on clocks.
    """

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self._exiting = asyncio.Event()

    def exit(self) -> None:
        self.should_exit = True
        self._exiting.set()

    # Signals are ours: the feed must close its sockets (1001) before uvicorn stops, and
    # uvicorn would re-raise a captured SIGTERM after serving, killing the process.
    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield

    async def main_loop(self) -> None:
        # The ticks refresh the Date header; `exit()` ends the wait between them at once.
        counter = 0
        while not await self.on_tick(counter):
            counter = (counter + 1) % 864000
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._exiting.wait(), TICK)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """uvicorn's graceful shutdown, bounded the same way, without its fixed pauses."""
        for server in self.servers:
            server.close()
        for sock in sockets or []:
            sock.close()
        state = self.server_state
        for connection in list(state.connections):
            connection.shutdown()
        if not await _until(lambda: not state.connections and not state.tasks, GRACE):
            # A client that stopped reading: its socket never drains, so it never closes.
            log.warning(
                "shutdown: %d connection(s) did not close within %g s; dropped",
                len(state.connections),
                GRACE,
            )
            for connection in list(state.connections):
                connection.transport.abort()
            if not await _until(lambda: not state.tasks, POLL * 10):
                for task in state.tasks:
                    task.cancel()
        await self.lifespan.shutdown()


async def _until(done: Callable[[], bool], timeout: float) -> bool:
    """Poll `done` every few milliseconds for at most `timeout` seconds; its last answer."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not done():
        if asyncio.get_running_loop().time() >= deadline:
            return False
        await asyncio.sleep(POLL)
    return True


def bind(host: str, port: int) -> socket.socket:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as error:
        raise BindError(f"--host {host!r} cannot be resolved ({error})") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as error:
        sock.close()
        raise BindError(f"--port {port}: cannot bind {host}:{port} ({error.strerror})") from None
    return sock


def base_url(sock: socket.socket, host: str) -> str:
    port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}{BASE}"


async def run_service(
    svc: ServiceContext,
    sock: socket.socket,
    url: str,
    on_ready: Callable[[str], None],
    stop: asyncio.Event,
    log_config: Any = uvicorn.config.LOGGING_CONFIG,
) -> int:
    """Serve until `stop` is set; returns the exit status (1 if the world failed)."""
    config = uvicorn.Config(
        create_app(svc),
        log_level="warning",
        access_log=False,
        lifespan="off",
        log_config=log_config,
        ws=FeedUpgradeProtocol,
    )
    server = QuickServer(config)
    world_task = asyncio.create_task(svc.world.run(), name="world")
    helpers = [asyncio.ensure_future(job()) for job in svc.background]
    serve_task = asyncio.create_task(server.serve(sockets=[sock]), name="http")
    while not server.started and not serve_task.done() and not world_task.done():
        await asyncio.sleep(0.005)
    status = 0
    if server.started and not world_task.done():
        on_ready(url)
        stopping = asyncio.create_task(stop.wait())
        await asyncio.wait({serve_task, world_task, stopping}, return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
    if world_task.done() and not world_task.cancelled() and world_task.exception() is not None:
        log.error("the world stopped: %r", world_task.exception())
        status = 1
    if svc.feed is not None:
        try:
            await asyncio.wait_for(svc.feed.shutdown(), FEED_SHUTDOWN_TIMEOUT)
        except Exception as error:  # noqa: BLE001 - shutting down whatever happens
            log.warning("feed shutdown: %r", error)
    server.exit()
    with contextlib.suppress(Exception):
        await serve_task
    if serve_task.done() and not server.started:
        status = 1
    for task in (world_task, *helpers):
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
    for hook in svc.on_stop:
        hook()
    return status
