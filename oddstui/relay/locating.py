"""Asking upstream where a new event is, once, so the feed filters can place its messages.

The catalog walk (catalog.py) lists events every few minutes; a match created in between reaches
the relay first as feed messages carrying only its id. The relay then asks `GET /events/{id}`
once (its REST side learns the answer into `EventPlaces`) and holds its fan-out until the answer
comes or `LOCATE_TIMEOUT` passes, so a client filtering by sport, league or status gets that
match's messages, in seq order, instead of never.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger("oddstui.relay")
LOCATE_TIMEOUT = 5.0  # the longest the fan-out waits for one event's place
Locate = Callable[[int], Awaitable[object]]


class Locator:
    """The lookups of unplaced events: each event is asked about at most once."""

    def __init__(self, locate: Locate, on_settled: Callable[[], None]) -> None:
        self._locate = locate
        self._on_settled = on_settled  # called when no lookup is outstanding any more
        self._asked: set[int] = set()
        self._outstanding: set[int] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self.lookups = 0

    @property
    def busy(self) -> bool:
        return bool(self._outstanding)

    def ask(self, event_id: int) -> None:
        """Start the lookup of `event_id` unless it was asked about before."""
        if event_id in self._asked:
            return
        self._asked.add(event_id)
        self._outstanding.add(event_id)
        self.lookups += 1
        task = asyncio.get_running_loop().create_task(self._run(event_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, event_id: int) -> None:
        try:
            await asyncio.wait_for(self._locate(event_id), LOCATE_TIMEOUT)
        except Exception as error:  # an unplaced event still reaches unfiltered clients
            log.warning("event %d: no place from upstream (%s)", event_id, type(error).__name__)
        finally:
            self._outstanding.discard(event_id)
            if not self._outstanding:
                self._on_settled()

    async def aclose(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
