"""`oddstui web`: the desk served to browsers until a signal.

One process holds it all: the upstream (the configured service with the trader's key, or the
built-in service started as a child with none), the relay's core on a loopback port of its own
(one upstream feed and one REST cache for every tab), and the web server the browsers reach.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import socket
import sys
from typing import Any

from oddstui.web.options import WebOptions, WebUsageError

READY_PREFIX = "oddstui web: open "


def web_command(args: argparse.Namespace) -> int:
    from oddstui.api.redact import install_log_redaction
    from oddstui.server.serving import BindError, bind

    logging.basicConfig(level=logging.WARNING, format="oddstui web: %(message)s")
    install_log_redaction()
    try:
        import textual_serve  # noqa: F401 - the `web` extra
    except ImportError:
        return _fail("needs textual-serve: pip install 'oddstui[web]'", 2)
    try:
        options = WebOptions.from_args(args)
    except WebUsageError as error:
        return _fail(str(error), 2)
    try:
        sock = bind(options.host, options.port)
        relay_sock = bind("127.0.0.1", 0)
    except BindError as error:
        return _fail(str(error), 2)
    child = None
    upstream, key = options.upstream, options.key
    if upstream is None:
        from oddstui.service.child import ChildFailed, start_child

        child = start_child(seed=options.seed, speed=options.speed)
        try:
            upstream, key = child.wait_ready(), child.api_key
        except ChildFailed as error:
            return _fail(f"the built-in service did not start: {error}", 1)
    assert key is not None
    try:
        return asyncio.run(_main(options, sock, relay_sock, upstream, key))
    finally:
        if child is not None:
            child.stop()


async def _main(
    options: WebOptions, sock: socket.socket, relay_sock: socket.socket, upstream: str, key: str
) -> int:
    import uvicorn

    from oddstui.relay.options import DEFAULT_MARKETS, RelayOptions, RelayStartError
    from oddstui.relay.options import RelayUsageError as RelayFlagError
    from oddstui.relay.server import run_relay
    from oddstui.server.accounts import Accounts
    from oddstui.server.serving import QuickServer, base_url
    from oddstui.web.app import create_web_app
    from oddstui.web.gate import Gate
    from oddstui.web.sessions import Desks

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    accounts = Accounts([])  # each tab's desk adds its own key, and takes it away
    relay_url = base_url(relay_sock, "127.0.0.1")
    relay_options = RelayOptions(
        host="127.0.0.1",
        port=0,
        accounts=accounts,
        upstream=upstream,
        key=key,
        markets=DEFAULT_MARKETS,
        replay_window=600.0,
        nats=None,
        from_nats=None,
        stream="ODDSTUI",
    )
    relay_ready = asyncio.Event()
    relays: list[Any] = []
    relaying = asyncio.create_task(
        run_relay(
            relay_options,
            relay_sock,
            relay_url,
            lambda _url: relay_ready.set(),
            stop,
            on_relay=relays.append,
        ),
        name="relay",
    )
    ready_wait = asyncio.create_task(relay_ready.wait())
    stop_wait = asyncio.create_task(stop.wait())
    await asyncio.wait({relaying, ready_wait, stop_wait}, return_when=asyncio.FIRST_COMPLETED)
    ready_wait.cancel()
    if not relay_ready.is_set():
        stop.set()
        try:
            return await relaying
        except RelayFlagError as error:
            return _fail(str(error), 2)
        except RelayStartError as error:
            return _fail(str(error), 1)

    desks = Desks(relay_url, accounts, options.sessions)
    gate = Gate()
    app = create_web_app(gate, desks, lambda: relays[0].feed.connections if relays else 0)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    server = QuickServer(config)
    serving = asyncio.create_task(server.serve(sockets=[sock]), name="web")
    try:
        while not server.started and not serving.done():
            await asyncio.sleep(0.005)
        if not server.started:
            return 1
        _announce(page_url(sock, options.host, gate.token))
        await asyncio.wait({stop_wait, serving, relaying}, return_when=asyncio.FIRST_COMPLETED)
        return 0 if not relaying.done() or relaying.exception() is None else 1
    finally:
        stop_wait.cancel()
        await desks.end_all()
        server.exit()
        with contextlib.suppress(BaseException):
            await serving
        stop.set()
        with contextlib.suppress(BaseException):
            await relaying


def page_url(sock: socket.socket, host: str, token: str) -> str:
    port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/?token={token}"


def _announce(url: str) -> None:
    sys.stdout.write(f"{READY_PREFIX}{url}\n")
    sys.stdout.flush()


def _fail(message: str, status: int) -> int:
    sys.stderr.write(f"oddstui web: {message}\n")
    sys.stderr.flush()
    return status
