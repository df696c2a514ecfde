"""Run a `FeedClient` on its own thread and event loop (FEED-CLIENT rule 16).

A terminal UI writes to the terminal through a bounded queue; when a slow SSH link fills it,
the UI's event loop blocks. A feed on that loop would stop reading. On its own thread the feed
keeps reading at full rate, and the UI only takes the book's changes when it paints:

    feed = FeedThread(FeedClient(base, key, OddsBook(), api))
    feed.start()
    ...
    changes = feed.take_changes()        # on the UI thread, a few times a second
    with feed.lock:                      # read the book consistently
        view = book_view(feed.client.book, event_id)
    status = feed.status()               # state, counters, last seq, data age
    feed.stop()

`cleanup` (e.g. `api.aclose`) runs on the feed's loop after the client stops.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from oddstui.api.feed import FeedClient
from oddstui.api.feed_state import FeedStatus


class FeedThread:
    def __init__(
        self,
        client: FeedClient,
        cleanup: Callable[[], Awaitable[Any]] | None = None,
        name: str = "oddstui-feed",
    ) -> None:
        self.client = client
        self.lock = client.lock
        self._cleanup = cleanup
        self._name = name
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self.error: BaseException | None = None
        """What ended the thread unexpectedly, if anything (never holds the key)."""

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, timeout: float = 5.0) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._main, name=self._name, daemon=True)
        self._thread.start()
        self._ready.wait(timeout)

    def _main(self) -> None:
        try:
            asyncio.run(self._run())
        except BaseException as error:  # recorded for the UI; a thread has no one to raise to
            self.error = error

    async def _run(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._ready.set()
        try:
            await self.client.run()
        finally:
            if self._cleanup is not None:
                await self._cleanup()

    def call(self, function: Callable[..., Any], *args: Any) -> None:
        """Run `function(*args)` on the feed's loop (FeedClient methods are not thread-safe)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(function, *args)

    def stop(self, timeout: float = 10.0) -> None:
        self.call(self.client.stop)
        if self._thread is not None:
            self._thread.join(timeout)

    def resume(self) -> None:
        """After "replaced" or "unauthorized", when the user asks to reconnect."""
        self.call(self.client.resume)

    def track(self, event_ids: Iterable[int]) -> None:
        self.call(self.client.track, tuple(event_ids))

    def take_changes(self) -> Any:
        return self.client.take_changes()

    def status(self) -> FeedStatus:
        return self.client.status()
