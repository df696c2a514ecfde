"""The feed's messages as JSON text, built so that shared parts are serialized only once."""

from __future__ import annotations

import json
from typing import Any

from oddstui.server.feed.params import FeedFilter

CREATED, UPDATED, DELETED, NO_MARKETS = "created", "updated", "deleted", "no_markets"
ODDS_KINDS = (CREATED, UPDATED, DELETED, NO_MARKETS)
WITH_MARKETS = (CREATED, UPDATED)

RESYNC_TOO_OLD = "lastSeq too old"
RESYNC_AHEAD = "lastSeq ahead of current seq"


_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)

try:  # orjson encodes several times faster (compact, UTF-8); the standard library is the fallback.
    from orjson import dumps as _orjson_dumps

    def dumps(obj: Any) -> str:
        return _orjson_dumps(obj).decode()

except ImportError:  # pragma: no cover - depends on the environment

    def dumps(obj: Any) -> str:
        return _ENCODER.encode(obj)


def odds_head(kind: str, seq: int, timestamp: str, event_id: int, bookie: str, url: str) -> str:
    """An odds message without its closing brace, so markets can be appended per filter."""
    head: dict[str, Any] = {
        "type": kind,
        "seq": seq,
        "timestamp": timestamp,
        "id": event_id,
        "bookie": bookie,
    }
    if kind in WITH_MARKETS:
        head["url"] = url
    return dumps(head)[:-1]


def odds_text(head: str, market_texts: list[str] | None) -> str:
    """Close an `odds_head`; `market_texts` are serialized markets, None for kinds without any."""
    if market_texts is None:
        return head + "}"
    return head + ',"markets":[' + ",".join(market_texts) + "]}"


def score_text(
    event_id: int, timestamp: str, scores: dict[str, Any], clock: dict[str, Any] | None = None
) -> str:
    """`clock` (ours): the live clock as read at `timestamp`, sent when it stops or starts."""
    message = {"type": "score", "id": event_id, "timestamp": timestamp, "scores": scores}
    if clock is not None:
        message["clock"] = clock
    return dumps(message)


def status_text(
    event_id: int,
    timestamp: str,
    status: str,
    scores: dict[str, Any],
    clock: dict[str, Any] | None = None,
) -> str:
    message = {
        "type": "status",
        "id": event_id,
        "timestamp": timestamp,
        "status": status,
        "scores": scores,
    }
    if clock is not None:
        message["clock"] = clock
    return dumps(message)


def welcome_text(
    feed_filter: FeedFilter,
    bookmakers: list[str],
    seq: int,
    extra: dict[str, Any] | None = None,
) -> str:
    """`extra` adds fields of our own after the standard ones (a relay announces itself)."""
    welcome: dict[str, Any] = {
        "type": "welcome",
        "bookmakers": bookmakers,
        "market_filter": list(feed_filter.markets),
        "channels": list(feed_filter.channels),
        "sport_filter": sorted(feed_filter.sports),
        "leagues_filter": sorted(feed_filter.leagues),
        "eventIds_filter": sorted(feed_filter.event_ids),
        "status_filter": feed_filter.status,
        "seq": seq,
    }
    if extra:
        welcome.update(extra)
    return dumps(welcome)


def resync_text(reason: str, seq: int) -> str:
    return dumps({"type": "resync_required", "reason": reason, "seq": seq})
