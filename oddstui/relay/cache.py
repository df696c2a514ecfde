"""Upstream answers kept for a short while, and one upstream request for many equal ones.

Ten desks starting together ask for the same sports, leagues and live events: the relay asks
upstream once (`fetch` joins a request already in flight) and answers the rest from here, so
the key's hourly budget is spent once per answer, not once per desk.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

# Seconds an answer is reused, by route; what changes with every price moves fastest.
TTL: dict[str, float] = {
    "/sports": 300.0,
    "/bookmakers": 300.0,
    "/leagues": 60.0,
    "/participants": 300.0,
    "/participants/{id}": 300.0,
    "/participants/{id}/logo": 3600.0,
    "/events": 5.0,
    "/events/live": 2.0,
    "/events/search": 30.0,
    "/events/{id}": 2.0,
    "/historical/events": 300.0,
    "/historical/odds": 300.0,
    "/odds": 1.0,
    "/odds/multi": 1.0,
    "/odds/updated": 1.0,
    "/odds/movements": 2.0,
    "/value-bets": 2.0,
    "/arbitrage-bets": 2.0,
    "/dropping-odds": 5.0,
    "/openapi.json": 3600.0,
    "/markets": 3600.0,  # a sport's market names change with a release, not a match
    "/historical/closing-lines": 300.0,
    "/settlements": 2.0,
}
DEFAULT_TTL = 1.0
CACHED_STATUSES = frozenset({200, 404})  # a logo's 404 is as stable as the logo


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    body: bytes
    headers: dict[str, str]  # the upstream headers a client may need (type, cache, seq)
    seq: int | None  # the feed sequence of an includeSeq answer


class ResponseCache:
    def __init__(
        self, clock: Callable[[], float] = time.monotonic, max_entries: int = 4096
    ) -> None:
        self._clock = clock
        self._max = max_entries
        self._stored: dict[tuple[str, ...], tuple[float, Answer]] = {}
        self._inflight: dict[tuple[str, ...], asyncio.Future[Answer]] = {}
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._stored)

    async def fetch(
        self,
        key: tuple[str, ...],
        ttl: float,
        ask: Callable[[], Awaitable[Answer]],
        usable: Callable[[Answer], bool] = lambda answer: True,
    ) -> Answer:
        """The stored answer if fresh and `usable`, else the one in flight, else `ask()`."""
        stored = self._stored.get(key)
        now = self._clock()
        if stored is not None and stored[0] > now and usable(stored[1]):
            self.hits += 1
            return stored[1]
        waiting = self._inflight.get(key)
        if waiting is not None:
            self.hits += 1
            return await asyncio.shield(waiting)
        self.misses += 1
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._inflight[key] = future
        try:
            answer = await ask()
        except BaseException as error:
            if isinstance(error, asyncio.CancelledError):
                future.cancel()
            else:
                future.set_exception(error)
                future.exception()  # marked retrieved: nobody else may be waiting
            raise
        finally:
            del self._inflight[key]
        future.set_result(answer)
        if answer.status in CACHED_STATUSES and ttl > 0:
            self._store(key, self._clock() + ttl, answer)
        return answer

    def _store(self, key: tuple[str, ...], expires: float, answer: Answer) -> None:
        if len(self._stored) >= self._max:
            now = self._clock()
            self._stored = {k: v for k, v in self._stored.items() if v[0] > now}
            if len(self._stored) >= self._max:
                self._stored.clear()
        self._stored[key] = (expires, answer)
