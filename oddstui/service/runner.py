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

log = logging.getLogger("oddstui.service")
FEED_SHUTDOWN_TIMEOUT = 3.0


class BindError(Exception):
    """The address cannot be bound; the message names the flag at fault."""


class _Server(uvicorn.Server):
    # Signals are ours: the feed must close its sockets (1001) before uvicorn stops, and
    # uvicorn would re-raise a captured SIGTERM after serving, killing the process.
    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


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
        timeout_graceful_shutdown=3,
        log_config=log_config,
    )
    server = _Server(config)
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
    server.should_exit = True
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
