"""The service in a background thread on a free loopback port, for the TUI without a key.

service = start_embedded()
... ApiClient(service.base_url, service.api_key) ...
service.stop()
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from oddstui.server.accounts import DEMO_KEY, demo_accounts
from oddstui.server.serving import base_url, bind
from oddstui.service.assembly import Options, build_service
from oddstui.service.runner import run_service

HOST = "127.0.0.1"
T = TypeVar("T")


@dataclass
class EmbeddedService:
    base_url: str
    api_key: str = field(default=DEMO_KEY, repr=False)
    _loop: asyncio.AbstractEventLoop | None = field(default=None, repr=False)
    _stop: asyncio.Event | None = field(default=None, repr=False)
    _thread: threading.Thread | None = field(default=None, repr=False)
    #: The running service (its world), for tests that act on it through `call`.
    context: Any = field(default=None, repr=False)

    def call(self, function: Callable[[], T], timeout: float = 10.0) -> T:
        """Run `function` on the service's own thread, between two world steps; its result."""
        if self._loop is None:
            raise RuntimeError("the embedded service is not running")
        future = concurrent.futures.Future[T]()

        def run() -> None:
            try:
                future.set_result(function())
            except BaseException as error:  # noqa: BLE001 - handed to the caller
                future.set_exception(error)

        self._loop.call_soon_threadsafe(run)
        return future.result(timeout)

    def stop(self, timeout: float = 5.0) -> None:
        """Stop serving (feed connections are closed with 1001) and wait for the thread."""
        if self._loop is not None and self._stop is not None and not self._loop.is_closed():
            try:
                self._loop.call_soon_threadsafe(self._stop.set)
            except RuntimeError:  # the loop already ended
                pass
        if self._thread is not None:
            self._thread.join(timeout)


def start_embedded(options: Options | None = None, timeout: float = 15.0) -> EmbeddedService:
    """Start the whole service (with the `demo` account) and return once it accepts."""
    sock = bind(HOST, 0)
    url = base_url(sock, HOST)
    started = threading.Event()  # accepting connections
    ended = threading.Event()  # the thread is done (failed, or stopped)
    failure: list[BaseException] = []
    holder: dict[str, Any] = {}  # the thread's loop and stop event, once they exist

    def run() -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            svc = build_service(options or Options(), demo_accounts())
            stop = asyncio.Event()
            holder.update(loop=loop, stop=stop, context=svc)
            loop.run_until_complete(
                run_service(svc, sock, url, lambda _url: started.set(), stop, log_config=None)
            )
        except BaseException as error:  # noqa: BLE001 - reported to the starting thread
            failure.append(error)
        finally:
            sock.close()
            loop.close()
            ended.set()

    thread = threading.Thread(target=run, name="oddstui-embedded-service", daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not started.is_set() and not ended.is_set() and time.monotonic() < deadline:
        started.wait(0.02)
    if not started.is_set() or ended.is_set():
        reason = f"{failure[0]!r}" if failure else "it stopped" if ended.is_set() else "timeout"
        service = EmbeddedService(
            url,
            _loop=holder.get("loop"),
            _stop=holder.get("stop"),
            _thread=thread,
        )
        service.stop()
        raise RuntimeError(f"the embedded service did not start ({reason})")
    return EmbeddedService(
        base_url=url,
        _loop=holder["loop"],
        _stop=holder["stop"],
        _thread=thread,
        context=holder["context"],
    )
