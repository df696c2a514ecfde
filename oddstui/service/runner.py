"""Run the world service on a bound socket: uvicorn and the world's step loop on one event loop."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Callable
from typing import Any

import uvicorn

from oddstui.server.connection_limits import DEFAULT_MAX_CONNECTIONS
from oddstui.server.feed.upgrade import FeedUpgradeProtocol
from oddstui.server.guard import guarded_protocol
from oddstui.server.serving import QuickServer
from oddstui.service.app import create_app
from oddstui.service.context import ServiceContext
from oddstui.service.warming import warm_then_run

log = logging.getLogger("oddstui.service")
# On SIGTERM, the feed gets this long to close its connections (1001) before the HTTP server
# stops.
FEED_SHUTDOWN_TIMEOUT = 1.5


async def run_service(
    svc: ServiceContext,
    sock: socket.socket,
    url: str,
    on_ready: Callable[[str], None],
    stop: asyncio.Event,
    log_config: Any = uvicorn.config.LOGGING_CONFIG,
    max_connections: int = DEFAULT_MAX_CONNECTIONS,
) -> int:
    """Serve until `stop` is set; returns the exit status (1 if the world failed)."""
    config = uvicorn.Config(
        create_app(svc),
        log_level="warning",
        access_log=False,
        lifespan="off",
        log_config=log_config,
        http=guarded_protocol(max_connections),
        ws=FeedUpgradeProtocol,
    )
    server = QuickServer(config)
    world_task = asyncio.create_task(warm_then_run(svc), name="world")
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
