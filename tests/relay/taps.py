"""Raw feed clients for the relay tests: record every odds message's (seq, event, bookie)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

from websockets.asyncio.client import connect

from oddstui.api.feed_url import FeedFilters, feed_url

ODDS_KINDS = ("created", "updated", "deleted", "no_markets")


class Tap:
    """A plain WebSocket reader of one feed: the welcome, then every message, as dicts."""

    def __init__(
        self,
        base_url: str,
        key: str,
        last_seq: int | None = None,
        filters: FeedFilters | None = None,
    ) -> None:
        self.url = feed_url(base_url, key, filters or FeedFilters(), last_seq)
        self.welcome: dict[str, Any] | None = None
        self.messages: list[dict[str, Any]] = []

    @property
    def odds(self) -> list[tuple[int, int, str]]:
        return [
            (m["seq"], int(m["id"]), m["bookie"]) for m in self.messages if m["type"] in ODDS_KINDS
        ]

    @property
    def last_seq(self) -> int:
        odds = self.odds
        return odds[-1][0] if odds else -1

    async def run(self) -> None:
        async with connect(self.url, max_size=2**26) as ws:
            async for frame in ws:
                for line in str(frame).split("\n"):
                    message = json.loads(line)
                    if message["type"] == "welcome" and self.welcome is None:
                        self.welcome = message
                    else:
                        self.messages.append(message)


@contextlib.asynccontextmanager
async def tapping(tap: Tap) -> AsyncIterator[Tap]:
    task = asyncio.create_task(tap.run())
    try:
        yield tap
    finally:
        task.cancel()
        with contextlib.suppress(BaseException):
            await task


def latest_per_pair(odds: list[tuple[int, int, str]], after: int, upto: int) -> list[int]:
    """The seq of each (event, bookie) pair's last change in (after, upto], in seq order."""
    latest: dict[tuple[int, str], int] = {}
    for seq, event_id, bookie in odds:
        if after < seq <= upto:
            latest[(event_id, bookie)] = seq
    return sorted(latest.values())
