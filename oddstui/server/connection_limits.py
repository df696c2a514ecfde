"""The `--max-connections` flag of `oddstui serve`, `relay` and `replay` (light: no uvicorn, so
the command line parses without loading the server)."""

from __future__ import annotations

import argparse

DEFAULT_MAX_CONNECTIONS = 1000  # under the usual 1,024 files a process may open
HEADER_TIMEOUT = 5.0  # seconds a connection has to send a request's headers


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--max-connections must be an integer, got {text!r}"
        ) from None
    if not 1 <= value <= 1_000_000:
        raise argparse.ArgumentTypeError(
            f"--max-connections must be from 1 to 1000000, got {value}"
        )
    return value


def add_max_connections(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-connections",
        type=_count,
        default=DEFAULT_MAX_CONNECTIONS,
        metavar="N",
        help="open connections served at once, feeds included; more are answered 503 "
        f"(default {DEFAULT_MAX_CONNECTIONS})",
    )
