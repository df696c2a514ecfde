"""The `oddstui relay` flags, checked: every problem is one line naming the flag (exit 2)."""

from __future__ import annotations

import argparse
import os
import re
from dataclasses import dataclass

from oddstui.api.feed_url import FeedFilters
from oddstui.server.accounts import Accounts, AccountsError, load_accounts
from oddstui.server.connection_limits import DEFAULT_MAX_CONNECTIONS
from oddstui.server.feed.params import MAX_MARKETS

DEFAULT_MARKETS = FeedFilters().markets  # what the desk subscribes to
EMBEDDED = "embedded"
STREAM_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


class RelayUsageError(Exception):
    """A flag or file the relay cannot use; the message is one line (exit 2)."""


class RelayStartError(Exception):
    """The relay cannot start (its upstream refused the key, NATS is out of reach); exit 1."""


@dataclass(frozen=True)
class RelayOptions:
    host: str
    port: int
    accounts: Accounts
    upstream: str
    key: str
    markets: tuple[str, ...]
    replay_window: float
    nats: str | None  # publish to this server (or "embedded")
    from_nats: str | None  # serve from this server's stream instead of the upstream feed
    stream: str
    deflate: bool = False
    catalog_every: float = 600.0
    max_connections: int = DEFAULT_MAX_CONNECTIONS

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> RelayOptions:
        from oddstui.api.errors import RequestRejected
        from oddstui.api.rest import check_base_url
        from oddstui.config import KEY_ENV, PUBLIC_BASE_URL, ConfigError, load_settings

        if not args.accounts:
            raise RelayUsageError("--accounts FILE is required: the keys of the relay's clients")
        try:
            accounts = load_accounts(args.accounts)
        except AccountsError as error:
            raise RelayUsageError(f"--accounts {error}") from None
        try:
            settings = load_settings()
        except ConfigError as error:
            raise RelayUsageError(str(error)) from None
        key = os.environ.get(KEY_ENV) or settings.api_key
        if not key:
            raise RelayUsageError(
                f"no upstream API key: set {KEY_ENV} (the key never goes on the command line)"
            )
        try:
            upstream = check_base_url(args.upstream or settings.base_url or PUBLIC_BASE_URL)
        except RequestRejected as error:
            raise RelayUsageError(f"--upstream: {error}") from None
        if args.nats and args.from_nats:
            raise RelayUsageError("--nats and --from-nats: use one of them")
        if args.from_nats == EMBEDDED:
            raise RelayUsageError("--from-nats needs the URL of a running NATS server")
        if not STREAM_NAME.fullmatch(args.stream):
            raise RelayUsageError(
                "--stream: letters, digits, - and _ only (it names the subjects too), "
                f"got {args.stream!r}"
            )
        return cls(
            host=args.host,
            port=args.port,
            accounts=accounts,
            upstream=upstream,
            key=key,
            markets=parse_markets(args.markets),
            replay_window=args.replay_window,
            nats=args.nats,
            from_nats=args.from_nats,
            stream=args.stream,
            deflate=args.deflate,
            catalog_every=args.catalog_every,
            max_connections=args.max_connections,
        )


def parse_markets(text: str | None) -> tuple[str, ...]:
    if text is None:
        return DEFAULT_MARKETS
    names = tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    if not names:
        raise RelayUsageError("--markets: give at least one market name, e.g. ML,Totals")
    if len(names) > MAX_MARKETS:
        raise RelayUsageError(
            f"--markets: at most {MAX_MARKETS} (the feed's limit), got {len(names)}"
        )
    return names
