"""The `oddstui replay` flags (the service's --host, --port and --accounts, as `oddstui serve`)."""

from __future__ import annotations

import argparse
import re
from datetime import UTC, datetime

from oddstui.server.connection_limits import add_max_connections

_OFFSET = re.compile(r"\+?(\d+(?:\.\d+)?)\s*([smh])", re.IGNORECASE)
_SECONDS = {"s": 1, "m": 60, "h": 3600}


def speed(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--speed must be a number, got {text!r}") from None
    if not 0 < value < 1e12:
        raise argparse.ArgumentTypeError(f"--speed must be a positive number, got {text!r}")
    return value


def port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--port must be an integer, got {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"--port must be from 0 to 65535, got {value}")
    return value


def start_time(text: str) -> tuple[str, float]:
    """`--from`: ("offset", seconds after the recording's start) for `10m`, `+90s`, `1.5h`;
    ("at", unix time) for an ISO-8601 time (UTC unless it says otherwise)."""
    match = _OFFSET.fullmatch(text.strip())
    if match:
        return ("offset", float(match.group(1)) * _SECONDS[match.group(2).lower()])
    try:
        when = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--from must be a time like 2026-11-25T21:40:00Z or an offset like 10m, got {text!r}"
        ) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return ("at", when.timestamp())


def add_replay_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", metavar="PATH", help="the recording's folder")
    parser.add_argument(
        "--speed", type=speed, default=1.0, help="recorded seconds per real second (default 1)"
    )
    parser.add_argument(
        "--from",
        dest="start",
        metavar="TIME",
        type=start_time,
        help="start here: an ISO-8601 time, or an offset into the recording like 10m",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=port, default=8765, help="port (default 8765); 0 binds a free one"
    )
    parser.add_argument("--accounts", metavar="FILE", help="TOML file of accounts (as serve)")
    add_max_connections(parser)
