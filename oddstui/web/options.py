"""The `oddstui web` flags, checked: each problem is one line naming the flag (exit 2)."""

from __future__ import annotations

import argparse
import ipaddress
import os
from collections.abc import Callable
from dataclasses import dataclass, field

DEFAULT_SESSIONS = 4
MAX_SESSIONS = 64


def add_web_arguments(
    parser: argparse.ArgumentParser, add_client_arguments: Callable[[argparse.ArgumentParser], None]
) -> None:
    """The `oddstui web` flags (docs/web.md); ranges are checked in `WebOptions.from_args`."""
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=int, default=8767, help="port (default 8767); 0 binds a free one"
    )
    parser.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow a --host other than loopback (put TLS in front: docs/web.md)",
    )
    parser.add_argument(
        "--sessions",
        type=int,
        default=DEFAULT_SESSIONS,
        help=f"desks open at once, one per tab (default {DEFAULT_SESSIONS}, at most "
        f"{MAX_SESSIONS})",
    )
    add_client_arguments(parser)
    parser.add_argument(
        "--demo", action="store_true", help="the built-in service even when a key is configured"
    )
    parser.add_argument("--seed", type=int, default=1, help="built-in world seed (default 1)")
    parser.add_argument(
        "--speed", type=float, default=1.0, help="built-in world's time multiplier (default 1)"
    )


class WebUsageError(Exception):
    """A flag or setting `oddstui web` cannot use; the message is one line (exit 2)."""


@dataclass(frozen=True)
class WebOptions:
    host: str
    port: int
    sessions: int
    upstream: str | None  # None: the built-in service, started here
    key: str | None = field(default=None, repr=False)
    seed: int = 1
    speed: float = 1.0

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> WebOptions:
        from oddstui.api.errors import RequestRejected
        from oddstui.api.rest import check_base_url
        from oddstui.config import KEY_ENV, PUBLIC_BASE_URL, config_path, load_settings

        _check_ranges(args)
        if not is_loopback(args.host) and not args.allow_remote:
            raise WebUsageError(
                f"--host {args.host} is not loopback: any machine that reaches it could try the "
                "desk; add --allow-remote to mean it (put TLS in front, see docs/web.md)"
            )
        settings = load_settings()
        key = None if args.demo else (_env_key(KEY_ENV) or settings.api_key)
        base = None if args.demo else args.base_url or settings.base_url
        if base is None and key is None:
            return cls(args.host, args.port, args.sessions, None, None, args.seed, args.speed)
        try:
            upstream = check_base_url(base or PUBLIC_BASE_URL)
        except RequestRejected as error:
            raise WebUsageError(f"--base-url: {error}") from None
        if not key:
            raise WebUsageError(
                f"no API key for {upstream}: set {KEY_ENV} or api_key in {config_path()}"
            )
        return cls(args.host, args.port, args.sessions, upstream, key, args.seed, args.speed)


def _check_ranges(args: argparse.Namespace) -> None:
    if not 0 <= args.port <= 65535:
        raise WebUsageError(f"--port must be from 0 to 65535, got {args.port}")
    if not 1 <= args.sessions <= MAX_SESSIONS:
        raise WebUsageError(f"--sessions must be from 1 to {MAX_SESSIONS}, got {args.sessions}")
    if not 0 <= args.seed < 2**63:
        raise WebUsageError(f"--seed must be from 0 to 2**63-1, got {args.seed}")
    if not 0 < args.speed < float("inf"):
        raise WebUsageError(f"--speed must be a positive number, got {args.speed}")


def is_loopback(host: str) -> bool:
    if host.casefold() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _env_key(name: str) -> str | None:
    return os.environ.get(name) or None
