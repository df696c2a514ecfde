"""The service in a background thread on a free loopback port, for the TUI without a key.

service = start_embedded()
... ApiClient(service.base_url, service.api_key) ...
service.stop()
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field

from oddstui.service.accounts import DEMO_KEY, demo_accounts
from oddstui.service.assembly import Options, build_service
from oddstui.service.runner import base_url, bind, run_service

HOST = "127.0.0.1"


@dataclass
class EmbeddedService:
    base_url: str
    api_key: str = DEMO_KEY
    _loop: asyncio.AbstractEventLoop | None = field(default=None, repr=False)
    _stop: asyncio.Event | None = field(default=None, repr=False)
    _thread: threading.Thread | None = field(default=None, repr=False)

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
    ready = threading.Event()
    failure: list[BaseException] = []
    holder: dict[str, object] = {}

    def run() -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            svc = build_service(options or Options(), demo_accounts())
            stop = asyncio.Event()
            holder.update(loop=loop, stop=stop)
            loop.run_until_complete(
                run_service(svc, sock, url, lambda _url: ready.set(), stop, log_config=None)
            )
        except BaseException as error:  # noqa: BLE001 - reported to the starting thread
            failure.append(error)
        finally:
            ready.set()
            sock.close()
            loop.close()

    thread = threading.Thread(target=run, name="oddstui-embedded-service", daemon=True)
    thread.start()
    if not ready.wait(timeout) or failure or "loop" not in holder:
        raise RuntimeError(f"the embedded service did not start: {failure[0] if failure else ''}")
    return EmbeddedService(
        base_url=url,
        _loop=holder["loop"],  # type: ignore[arg-type]
        _stop=holder["stop"],  # type: ignore[arg-type]
        _thread=thread,
    )
