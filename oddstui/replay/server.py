"""`oddstui replay PATH`: a recording served as a v3 service on loopback, until a signal.

The ready line and accounts are `oddstui serve`'s (SERVICE.md): `serving http://HOST:PORT/v3`,
the `demo` key without --accounts. The welcome says it is a replay, at what speed and where the
replay clock stood, so the desk can say so.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import socket
import sys
from typing import Any

from oddstui.recording.reader import Recording, open_recording
from oddstui.recording.records import RecordingError
from oddstui.server.connection_limits import DEFAULT_MAX_CONNECTIONS

FEED_SHUTDOWN_TIMEOUT = 1.5


def replay_command(args: argparse.Namespace) -> int:
    from oddstui.server.serving import accounts_and_socket, base_url, usage_error

    try:
        recording = open_recording(args.path)
        first, last, _count = scan(recording)
    except RecordingError as error:
        return usage_error(str(error))
    if first is None or last is None:
        return usage_error(f"{args.path}: the recording holds no records")
    start_from = None
    if args.start is not None:
        kind, value = args.start
        start_from = first + value if kind == "offset" else value
        if not first <= start_from <= last:
            return usage_error(f"--from: outside the recording ({_iso(first)} to {_iso(last)})")
    books = recording.manifest.bookmakers
    opened = accounts_and_socket(
        args.accounts, args.host, args.port, lambda accounts: accounts.resolve(books, books)
    )
    if isinstance(opened, int):
        return opened
    accounts, sock = opened
    url = base_url(sock, args.host)
    return asyncio.run(
        _main(recording, accounts, args.speed, start_from, last, sock, url, args.max_connections)
    )


def scan(recording: Recording) -> tuple[float | None, float | None, int]:
    """The first and last record times and the count; reading it all checks every segment,
    so a bad one is named before anything is served."""
    first = last = None
    count = 0
    for record in recording.records():
        if first is None:
            first = record.time
        last = record.time if last is None else max(last, record.time)
        count += 1
    return first, last, count


async def _main(
    recording: Recording,
    accounts: Any,
    speed: float,
    start_from: float | None,
    until: float,
    sock: socket.socket,
    url: str,
    max_connections: int,
) -> int:
    from oddstui.server.serving import announce_serving

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    return await run_replay(
        recording,
        accounts,
        speed,
        start_from,
        until,
        sock,
        url,
        announce_serving,
        stop,
        max_connections=max_connections,
    )


async def run_replay(
    recording: Recording,
    accounts: Any,
    speed: float,
    start_from: float | None,
    until: float,
    sock: socket.socket,
    url: str,
    on_ready: Any,
    stop: asyncio.Event,
    *,
    max_connections: int = DEFAULT_MAX_CONNECTIONS,
) -> int:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute

    from oddstui.replay.player import Player
    from oddstui.replay.rest import ReplayRest
    from oddstui.replay.source import ReplaySource
    from oddstui.replay.state import ReplayState
    from oddstui.server.feed.core import FeedCore
    from oddstui.server.feed.upgrade import FeedUpgradeProtocol
    from oddstui.server.guard import guarded_protocol
    from oddstui.server.http import BASE, ERROR_HANDLERS
    from oddstui.server.serving import QuickServer

    manifest = recording.manifest
    state = ReplayState(complete_markets=manifest.complete_markets)
    source = ReplaySource(state, manifest.markets)
    player: Player | None = None

    def welcome_fields() -> dict[str, Any]:
        fields: dict[str, Any] = {}
        if manifest.complete_markets:
            fields["complete_markets"] = True
        if player is not None and player.clock is not None:
            fields["replay"] = {"speed": speed, "time": player.clock.now(), "until": until}
        return fields

    feed = FeedCore(source, accounts, welcome_fields=welcome_fields)
    player = Player(recording.records(), state, source, feed, speed, start_from)
    rest = ReplayRest(state, accounts, manifest.bookmakers)
    app = Starlette(
        routes=[*rest.routes(), WebSocketRoute(BASE + "/ws", feed.endpoint)],
        exception_handlers=dict(ERROR_HANDLERS),
    )
    app.router.redirect_slashes = False
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        lifespan="off",
        http=guarded_protocol(max_connections),
        ws=FeedUpgradeProtocol,
    )
    server = QuickServer(config)
    serve_task = asyncio.create_task(server.serve(sockets=[sock]), name="http")
    while not server.started and not serve_task.done():
        await asyncio.sleep(0.005)
    if not server.started:
        return 1
    play_task = asyncio.create_task(player.run(), name="replay")
    on_ready(url)
    try:
        stopping = asyncio.create_task(stop.wait())
        await asyncio.wait({serve_task, stopping}, return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
    finally:
        play_task.cancel()
        with contextlib.suppress(BaseException):
            await play_task
        with contextlib.suppress(Exception):
            await asyncio.wait_for(feed.shutdown(), FEED_SHUTDOWN_TIMEOUT)
        server.exit()
        with contextlib.suppress(Exception):
            await serve_task
    if play_task.done() and not play_task.cancelled() and play_task.exception() is not None:
        error = play_task.exception()
        if isinstance(error, RecordingError):
            sys.stderr.write(f"oddstui: {error}\n")
            return 2
    return 0


def _iso(unix_time: float) -> str:
    from oddstui.recording.manifest import iso

    return iso(unix_time)
