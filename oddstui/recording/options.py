"""The `oddstui record` flags, and turning them into `RecordOptions`-ready values."""

from __future__ import annotations

import argparse
import re

from oddstui.api.feed_url import FeedFilters
from oddstui.seed_markets import MAX_FEED_MARKETS

_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?", re.IGNORECASE)
_UNITS = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}
_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*([smhd]?)", re.IGNORECASE)
_SECONDS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def size(text: str) -> int:
    """`500M`, `2G`, `1048576`: bytes."""
    match = _SIZE.fullmatch(text.strip())
    if not match or float(match.group(1)) <= 0:
        raise argparse.ArgumentTypeError(f"--max-size must be a size like 500M or 2G, got {text!r}")
    return int(float(match.group(1)) * _UNITS[match.group(2).lower()])


def duration(text: str) -> float:
    """`90`, `90s`, `15m`, `2h`: seconds."""
    match = _DURATION.fullmatch(text.strip())
    if not match or float(match.group(1)) <= 0:
        raise argparse.ArgumentTypeError(
            f"--duration must be a time like 90s, 15m or 2h, got {text!r}"
        )
    return float(match.group(1)) * _SECONDS[match.group(2).lower()]


def markets(text: str) -> tuple[str, ...]:
    names = tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    if not names:
        raise argparse.ArgumentTypeError("--markets: give at least one market name, e.g. ML,Totals")
    if len(names) > MAX_FEED_MARKETS:
        raise argparse.ArgumentTypeError(
            f"--markets: at most {MAX_FEED_MARKETS} (the feed's limit), got {len(names)}"
        )
    return names


def add_record_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out", metavar="DIR", required=True, help="a new folder for the recording"
    )
    parser.add_argument(
        "--base-url",
        metavar="URL",
        help="the v3 service to record (default: the public service with a key; with no key "
        "and no URL, the built-in service)",
    )
    parser.add_argument(
        "--markets",
        metavar="A,B",
        type=markets,
        default=FeedFilters().markets,
        help="markets to record (default: the 20 the desk subscribes to)",
    )
    parser.add_argument(
        "--duration", metavar="TIME", type=duration, help="stop after this long, e.g. 90s, 2h"
    )
    parser.add_argument(
        "--max-size",
        metavar="SIZE",
        type=size,
        help="keep the folder near this size (e.g. 2G): the oldest segments go",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=1,
        help="with no key: the built-in world's seed, the desk's (default 1)",
    )
