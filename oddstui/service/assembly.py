"""Build the world service (world, accounts, indexes, feed) from the serve options."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from oddstui.server.accounts import Accounts
from oddstui.server.ratelimit import RateLimiter
from oddstui.service.context import ServiceContext
from oddstui.service.derived.indexes import Indexes
from oddstui.service.feed import FeedHub


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
    def from_args(cls, args: argparse.Namespace) -> Options:
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
    # The prices open after the ready line (service/warming.py).
    svc = ServiceContext(world, accounts, RateLimiter(), Indexes.attach(world))
    svc.background.append(svc.indexes.run)
    svc.feed = FeedHub(world, accounts)
    return svc
