"""The feed's WebSocket URL: `{base}/ws?apiKey=...&markets=...` (WIRE.md, "Feed")."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import quote, urlsplit, urlunsplit

from oddstui.api.redact import redact_url

CHANNELS = ("odds", "scores", "status")
#: What the desk subscribes to, at the limit: every sport's main markets first, so that an
#: ice-hockey match in overtime (quoted on "ML Incl OT" alone) or a tennis match's sets still
#: show prices; then the seed's names most traded. Left out of the seed's 16: the quarter
#: (1Q), corners at half-time and bookings handicap markets.
FEED_MARKETS = (
    *("ML", "Spread", "Totals", "ML Incl OT", "Sets Spread", "Sets Totals"),
    *("Maps Spread", "Maps Totals", "Double Chance", "Draw No Bet", "Both Teams To Score"),
    *("ML HT", "Spread HT", "Totals HT", "Team Total Home", "Team Total Away"),
    *("Corners Spread", "Corners Totals", "Bookings Totals", "Player Props"),
)


@dataclass(frozen=True, slots=True)
class FeedFilters:
    """What to subscribe to; the service checks the seed's limits and answers 400 otherwise."""

    markets: tuple[str, ...] = FEED_MARKETS
    channels: tuple[str, ...] = CHANNELS
    sports: tuple[str, ...] = ()
    leagues: tuple[str, ...] = ()
    event_ids: tuple[int, ...] = ()
    status: str | None = None  # "live" or "prematch"


def _join(values: Iterable[object]) -> str:
    return ",".join(quote(str(value), safe="") for value in values)


def ws_base(base_url: str) -> str:
    """`http://h/v3` becomes `ws://h/v3/ws`; `https` becomes `wss`."""
    parts = urlsplit(base_url.rstrip("/"))
    scheme = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}.get(parts.scheme)
    if scheme is None:
        raise ValueError("the base URL must start with http://, https://, ws:// or wss://")
    path = parts.path if parts.path.endswith("/ws") else parts.path + "/ws"
    return urlunsplit((scheme, parts.netloc, path, "", ""))


def feed_url(base_url: str, api_key: str | None, filters: FeedFilters, last_seq: int | None) -> str:
    """The full URL, key included: hand it to the socket only, show `redact_url(...)` instead."""
    query: list[str] = []
    if api_key:
        query.append("apiKey=" + quote(api_key, safe=""))
    if filters.markets and "odds" in filters.channels:
        query.append("markets=" + _join(filters.markets))
    query.append("channels=" + _join(filters.channels))
    if filters.sports:
        query.append("sport=" + _join(filters.sports))
    if filters.leagues:
        query.append("leagues=" + _join(filters.leagues))
    if filters.event_ids:
        query.append("eventIds=" + _join(filters.event_ids))
    if filters.status:
        query.append("status=" + quote(filters.status, safe=""))
    if last_seq is not None:
        query.append(f"lastSeq={last_seq}")
    return ws_base(base_url) + "?" + "&".join(query)


def shown_url(url: str) -> str:
    return redact_url(url)
