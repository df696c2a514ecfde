"""`oddstui relay`: one upstream feed (or a NATS stream) served to many desks, until a signal."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import socket
import sys
from collections.abc import Callable
from typing import Any

from oddstui.relay.options import RelayOptions, RelayStartError, RelayUsageError

log = logging.getLogger("oddstui.relay")
SELECTION_RETRY = 2.0  # seconds between attempts to reach the upstream at start
UPSTREAM_GRACE = 3.0  # an upstream not reached by then: the relay serves, saying `upstream down`
UPSTREAM_DOWN = "down"
FEED_SHUTDOWN_TIMEOUT = 1.5
FIRST_WALK_TIMEOUT = 30.0


def relay_command(args: argparse.Namespace) -> int:
    from oddstui.api.redact import install_log_redaction
    from oddstui.server.serving import BindError, base_url, bind

    logging.basicConfig(level=logging.WARNING, format="oddstui relay: %(message)s")
    install_log_redaction()

    try:
        options = RelayOptions.from_args(args)
    except RelayUsageError as error:
        return _fail(str(error), 2)
    try:
        sock = bind(options.host, options.port)
    except BindError as error:
        return _fail(str(error), 2)
    url = base_url(sock, options.host)
    try:
        return asyncio.run(_main(options, sock, url))
    except RelayUsageError as error:
        return _fail(str(error), 2)
    except RelayStartError as error:
        return _fail(str(error), 1)


async def _main(options: RelayOptions, sock: socket.socket, url: str) -> int:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    return await run_relay(options, sock, url, _announce, stop)


async def run_relay(
    options: RelayOptions,
    sock: socket.socket,
    url: str,
    on_ready: Callable[[str], None],
    stop: asyncio.Event,
    on_relay: Callable[[Any], None] | None = None,
) -> int:
    """Serve until `stop` is set; the ready line goes out once the stream has a position.
    `on_relay` is handed the `Relay` once made (`oddstui web` counts its feed clients)."""
    import uvicorn

    from oddstui.relay.app import create_relay_app
    from oddstui.relay.catalog import keep_walking, walk
    from oddstui.relay.relay import Relay
    from oddstui.relay.rest import RelayRest
    from oddstui.relay.sources import Sources, start_sources
    from oddstui.server.accounts import AccountsError
    from oddstui.server.feed.upgrade import FeedUpgradeProtocol
    from oddstui.server.guard import guarded_protocol
    from oddstui.server.serving import QuickServer

    relay = Relay(options.accounts, options.markets, window=options.replay_window)
    if on_relay is not None:
        on_relay(relay)
    rest = RelayRest(relay, options.accounts, options.upstream, options.key, [])
    relay.locate_with(lambda event_id: rest.upstream("/events/{id}", f"/events/{event_id}", {}))
    selecting = asyncio.create_task(_upstream_selection(options, stop))
    await asyncio.wait({selecting}, timeout=UPSTREAM_GRACE)
    sources: Sources | None = None
    walker = None
    server: QuickServer | None = None
    serve_task: asyncio.Task[None] | None = None

    async def serve() -> bool:
        nonlocal server, serve_task
        config = uvicorn.Config(
            create_relay_app(relay, rest),
            log_level="warning",
            access_log=False,
            lifespan="off",
            # One deflate context per client: at thousands of messages a second to tens of
            # clients, compressing costs more than the relay's whole fan-out.
            ws_per_message_deflate=options.deflate,
            http=guarded_protocol(options.max_connections),  # header timeout, garbage, cap
            ws=FeedUpgradeProtocol,  # lets the feed watch each client's socket drain
        )
        server = QuickServer(config)
        serve_task = asyncio.create_task(server.serve(sockets=[sock]), name="http")
        while not server.started and not serve_task.done():
            await asyncio.sleep(0.005)
        if server.started:
            on_ready(url)
        return server.started

    try:
        if not selecting.done():
            # Serve what it has (nothing yet) and say why, rather than refuse connections.
            relay.set_upstream(UPSTREAM_DOWN, "the relay cannot reach its upstream; retrying")
            if not await serve():
                return 1
        selection = await selecting
        if selection is None:
            return 0
        try:
            options.accounts.resolve(selection, selection)
        except AccountsError as error:
            raise RelayUsageError(
                f"--accounts: {error} (not carried by the upstream key)"
            ) from None
        rest.selection = list(selection)
        sources = await start_sources(relay, options)
        if options.catalog_every > 0:
            # Before serving: clients' sport, league and status filters work from the first
            # message.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(walk(rest), FIRST_WALK_TIMEOUT)
            walker = asyncio.create_task(keep_walking(rest, options.catalog_every))
        if server is None:
            if not await _first(sources.ready.wait(), stop.wait(), sources.failed()):
                return sources.status()
            if not await serve():
                return 1
        assert serve_task is not None
        await _first(stop.wait(), serve_task, sources.failed())
        return sources.status()
    finally:
        selecting.cancel()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(relay.feed.shutdown(), FEED_SHUTDOWN_TIMEOUT)
        if server is not None and serve_task is not None:
            server.exit()
            with contextlib.suppress(Exception):
                await serve_task
        if walker is not None:
            walker.cancel()
            with contextlib.suppress(BaseException):
                await walker
        if sources is not None:
            await sources.stop()
        if relay.locator is not None:
            await relay.locator.aclose()
        await rest.aclose()


async def _first(*waits: Any) -> bool:
    """Wait for the first of these (coroutines or tasks) to finish; True when it was the first.
    Coroutines are wrapped here and cancelled after; tasks given are left running."""
    created = [asyncio.ensure_future(w) for w in waits if not isinstance(w, asyncio.Future)]
    given = iter(created)
    tasks = [w if isinstance(w, asyncio.Future) else next(given) for w in waits]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        return tasks[0] in done
    finally:
        for task in created:
            task.cancel()


async def _upstream_selection(options: RelayOptions, stop: asyncio.Event) -> list[str] | None:
    """The bookmakers the upstream key's feed carries; retried while the upstream is down."""
    from oddstui.api.errors import Forbidden, OddsApiError, Unauthorized
    from oddstui.api.rest import ApiClient

    async with ApiClient(options.upstream, options.key) as api:
        while not stop.is_set():
            try:
                return list((await api.selected_bookmakers()).bookmakers)
            except (Unauthorized, Forbidden) as error:
                raise RelayStartError(f"the upstream refused the relay's key: {error}") from None
            except OddsApiError as error:
                sys.stderr.write(f"oddstui relay: upstream not ready ({error}); retrying\n")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), SELECTION_RETRY)
    return None


def _announce(url: str) -> None:
    sys.stdout.write(f"relaying {url}\n")
    sys.stdout.flush()


def _fail(message: str, status: int) -> int:
    sys.stderr.write(f"oddstui relay: {message}\n")
    sys.stderr.flush()
    return status
