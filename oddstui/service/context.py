"""What every route can reach: the world, the accounts, the limiter and the derived indexes."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from starlette.routing import BaseRoute

from oddstui.server.accounts import Accounts
from oddstui.server.ratelimit import RateLimiter

if TYPE_CHECKING:
    from oddstui.service.derived.indexes import Indexes
    from oddstui.service.world import World


class FeedHubLike(Protocol):
    """The hook the feed (`oddstui.service.feed.FeedHub`) plugs into the app.

    `routes()` gives the Starlette routes to mount under `/v3` (the WebSocket at `/ws`);
    `shutdown()` closes every feed connection with 1001 before the HTTP server stops.
    """

    def routes(self) -> list[BaseRoute]: ...

    def shutdown(self) -> Awaitable[None]: ...


@dataclass
class ServiceContext:
    world: World
    accounts: Accounts
    limiter: RateLimiter
    indexes: Indexes
    feed: FeedHubLike | None = None
    # run when the server stops, after the feed is closed (e.g. index shutdown)
    on_stop: list[Callable[[], None]] = field(default_factory=list)
    # coroutines run as tasks beside the world while the service runs (index upkeep)
    background: list[Callable[[], Awaitable[None]]] = field(default_factory=list)
    # set once the world's prices are open (see service/warming.py); routes that read prices
    # wait for it
    warmed: asyncio.Event = field(default_factory=asyncio.Event)
