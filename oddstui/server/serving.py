"""Serving on a bound socket: the listening socket, its base URL and a uvicorn server that stops
as soon as it is told to (the service and the relay both serve through these)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import sys
from collections.abc import Callable, Iterator

import uvicorn

from oddstui.server.accounts import Accounts, AccountsError, demo_accounts, load_accounts
from oddstui.server.http import BASE
from oddstui.server.ready_line import ready_line

log = logging.getLogger("oddstui.service")
# On SIGTERM, requests in flight and sockets still flushing get GRACE seconds once the feed has
# closed its connections; clients that read take milliseconds.
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


def accounts_and_socket(
    accounts_file: str | None,
    host: str,
    port: int,
    check: Callable[[Accounts], None] | None = None,
) -> tuple[Accounts, socket.socket] | int:
    """The accounts (`--accounts FILE`, the demo key without one; `check` may refuse them)
    and the bound socket; or, when either cannot be had, the exit status of one usage line."""
    try:
        accounts = load_accounts(accounts_file) if accounts_file else demo_accounts()
        if check is not None:
            check(accounts)
    except AccountsError as error:
        return usage_error(f"--accounts {error}")
    try:
        return accounts, bind(host, port)
    except BindError as error:
        return usage_error(str(error))


def base_url(sock: socket.socket, host: str) -> str:
    port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}{BASE}"


def announce_serving(url: str) -> None:
    """The ready line of `oddstui serve` and `oddstui replay` (a contract: SERVICE.md)."""
    sys.stdout.write(ready_line(url))
    sys.stdout.flush()


def usage_error(message: str) -> int:
    """One line on standard error for a bad flag or file; the exit status 2."""
    sys.stderr.write(f"oddstui: {message}\n")
    sys.stderr.flush()
    return 2
