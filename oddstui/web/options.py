"""The `oddstui web` flags, checked: each problem is one line naming the flag (exit 2)."""

from __future__ import annotations

import argparse
import ipaddress
import os
from dataclasses import dataclass, field

DEFAULT_SESSIONS = 4
MAX_SESSIONS = 64


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


def is_loopback(host: str) -> bool:
    if host.casefold() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _env_key(name: str) -> str | None:
    return os.environ.get(name) or None
