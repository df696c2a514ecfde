"""`oddstui serve`: the v3 service on a socket, until SIGINT or SIGTERM."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import socket
import sys
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from oddstui.service.context import ServiceContext

_early_stop: list[int] = []  # signals that came before the event loop took them over


def _note_signal(signum: int, _frame: Any) -> None:
    _early_stop.append(signum)


def serve(args: argparse.Namespace) -> int:
    """Run the service for the parsed serve flags.

    Returns the exit status of a bad flag (2); once the world is built, it ends the process
    itself (see `_exit`).
    """
    # Importing and building the world take a moment: a SIGTERM or Ctrl-C meanwhile still ends
    # cleanly, so the handlers go in before the heavy imports.
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, _note_signal)
    from oddstui.server.accounts import AccountsError
    from oddstui.server.serving import accounts_and_socket, base_url, usage_error
    from oddstui.service.assembly import Options, build_service

    opened = accounts_and_socket(args.accounts, args.host, args.port)
    if isinstance(opened, int):
        return opened
    accounts, sock = opened
    truth = getattr(args, "truth", None)
    if truth:
        try:  # a path that cannot be written is said before the world is built
            with open(truth, "ab"):
                pass
        except OSError as error:
            sock.close()
            return usage_error(f"--truth {truth}: cannot write ({error.strerror or error})")
    try:
        svc = build_service(Options.from_args(args), accounts)
    except AccountsError as error:
        sock.close()
        return usage_error(f"--accounts {args.accounts}: {error}")
    if truth:
        try:
            write_truth(truth, svc.world.bookmakers)
        except OSError as error:
            sock.close()
            return usage_error(f"--truth {truth}: cannot write ({error.strerror or error})")
    if _early_stop:
        sock.close()
        _exit(0)
    url = base_url(sock, args.host)
    _exit(asyncio.run(_main(svc, sock, url, args.max_connections)))


def write_truth(path: str, bookmakers: dict[str, Any]) -> None:
    """The world's truth about its bookmakers as JSON (`--truth FILE`, docs/books.md)."""
    import orjson

    from oddstui.service.world.bookmaker_truth import bookmaker_truth

    data = orjson.dumps(bookmaker_truth(bookmakers), option=orjson.OPT_INDENT_2)
    with open(path, "wb") as out:
        out.write(data + b"\n")


async def _main(svc: ServiceContext, sock: socket.socket, url: str, max_connections: int) -> int:
    from oddstui.server.serving import announce_serving
    from oddstui.service.child import STOP_ON_EOF_ENV
    from oddstui.service.runner import run_service

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    if _early_stop:
        stop.set()
    if os.environ.get(STOP_ON_EOF_ENV):
        _stop_on_eof(loop, stop)
    return await run_service(
        svc, sock, url, announce_serving, stop, max_connections=max_connections
    )


def _stop_on_eof(loop: asyncio.AbstractEventLoop, stop: asyncio.Event) -> None:
    """Stop once standard input closes: the desk that started this service has gone."""
    fd = sys.stdin.fileno()

    def readable() -> None:
        try:
            gone = not os.read(fd, 4096)
        except OSError:
            gone = True
        if gone:
            loop.remove_reader(fd)
            stop.set()

    loop.add_reader(fd, readable)


def _exit(status: int) -> NoReturn:
    """End the process now, without the interpreter freeing the world object by object.

    The world holds hundreds of thousands of objects and its price history grows by thousands a
    second; at 2,000 updates/s that teardown took 0.3 s after 3 s of serving and over 1 s after
    20 s, and keeps growing. By now the feed connections are closed (1001) and the sockets are
    shut, so the only thing left to do is flush the output streams.
    """
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(status)


