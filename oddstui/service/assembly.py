"""Build a whole service (world, accounts, indexes, feed) from the serve options."""

from __future__ import annotations

import importlib
import logging
from dataclasses import dataclass
from typing import Any

from oddstui.service.accounts import Accounts
from oddstui.service.context import ServiceContext
from oddstui.service.derived.indexes import Indexes
from oddstui.service.openapi import build_document
from oddstui.service.ratelimit import RateLimiter

log = logging.getLogger("oddstui.service")
WARM_BUDGET = 0.3  # real seconds spent opening quotes before the ready line; steps do the rest


@dataclass(frozen=True, slots=True)
class Options:
    """The `oddstui serve` flags that shape the world (see SERVICE.md)."""

    seed: int = 1
    speed: float = 1.0
    bookmakers: int = 265
    updates_per_second: float = 50.0
    replay_window: float = 600.0
    start: float | None = None  # the world's start (epoch seconds); None: now

    @classmethod
    def from_args(cls, args: Any) -> Options:
        return cls(
            seed=args.seed,
            speed=args.speed,
            bookmakers=args.bookmakers,
            updates_per_second=args.updates_per_second,
            replay_window=args.replay_window,
        )


def build_service(options: Options, accounts: Accounts) -> ServiceContext:
    """Raises `AccountsError` when an account selects a bookmaker the world lacks."""
    from oddstui.service.world import World

    world = World(
        seed=options.seed,
        speed=options.speed,
        bookmakers=options.bookmakers,
        updates_per_second=options.updates_per_second,
        replay_window=options.replay_window,
        start=options.start,
        background=True,  # the rest of the world's days are laid out after the ready line
    )
    accounts.resolve(world.bookmakers, list(world.default_selection))
    world.warm(WARM_BUDGET)
    svc = ServiceContext(world, accounts, RateLimiter(), Indexes.attach(world))
    svc.openapi = build_document
    svc.background.append(svc.indexes.run)
    svc.feed = _feed_hub(svc)
    return svc


def _feed_hub(svc: ServiceContext) -> Any:
    """The feed's hook: `FeedHub(world, accounts)` from `oddstui.service.feed.hub`, if present.

    The hub gives `routes()` (mounted under /v3) and `async shutdown()` (called on SIGTERM before
    the HTTP server stops, so clients see close code 1001).
    """
    for name in ("oddstui.service.feed.hub", "oddstui.service.feed"):
        try:
            hub = getattr(importlib.import_module(name), "FeedHub", None)
        except ImportError:
            continue
        if hub is not None:
            return hub(svc.world, svc.accounts)
    log.debug("no feed hub; serving REST only")
    return None
