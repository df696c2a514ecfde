"""What every route can reach: the world, the accounts, the limiter and the derived indexes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from oddstui.service.accounts import Accounts
from oddstui.service.ratelimit import RateLimiter

if TYPE_CHECKING:
    from oddstui.service.derived.indexes import Indexes


class FeedHubLike(Protocol):
    """The hook the feed (`oddstui.service.feed`) plugs into the app.

    `routes()` gives the Starlette routes to mount under `/v3` (the WebSocket at `/ws`);
    `shutdown()` closes every feed connection with 1001 before the HTTP server stops.
    """

    def routes(self) -> list[Any]: ...

    def shutdown(self) -> Awaitable[None]: ...


@dataclass
class ServiceContext:
    world: Any  # oddstui.service.world.World
    accounts: Accounts
    limiter: RateLimiter
    indexes: Indexes
    feed: FeedHubLike | None = None
    # the OpenAPI document of the served routes (set by assembly: routes/meta cannot import
    # openapi.py, which imports every route)
    openapi: Callable[[], dict[str, Any]] | None = None
    # run when the server stops, after the feed is closed (e.g. index shutdown)
    on_stop: list[Callable[[], None]] = field(default_factory=list)
    # coroutines run as tasks beside the world while the service runs (index upkeep)
    background: list[Callable[[], Awaitable[None]]] = field(default_factory=list)
