"""The feed's handshake query: filters, their limits and the seed's exact 400 texts."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from oddstui.seed_markets import MAX_FEED_MARKETS
from oddstui.server.params import control_refusal

ODDS, SCORES, STATUS = "odds", "scores", "status"
CHANNELS = (ODDS, SCORES, STATUS)
STATUS_FILTERS = ("live", "prematch")

# Every parameter of the handshake that carries text: none may hold a control character.
TEXT_PARAMETERS = ("channels", "sport", "leagues", "eventIds", "markets", "status", "lastSeq")

MAX_SPORTS, MAX_LEAGUES, MAX_EVENT_IDS, MAX_MARKETS = 10, 20, 50, MAX_FEED_MARKETS

# The seed's error table, word for word.
TOO_MANY_SPORTS = "Too many sports. Maximum 10 allowed."
TOO_MANY_LEAGUES = "Too many leagues. Maximum 20 allowed."
TOO_MANY_EVENT_IDS = "Too many event IDs. Maximum 50 allowed."
TOO_MANY_MARKETS = "Too many markets. Maximum 20 allowed."
LEAGUES_AND_EVENT_IDS = "Cannot use both 'leagues' and 'eventIds' filters together."
INVALID_STATUS = "Invalid status filter. Use 'prematch' or 'live'"
INVALID_CHANNEL = "Invalid channel: {channel}. Allowed: odds, scores, status"
# Ours (WIRE.md leaves the texts open): each names the parameter and the rule.
MARKETS_REQUIRED = "markets is required when the odds channel is subscribed"
INVALID_EVENT_ID = "Invalid event ID: {value}. eventIds must be integers"
INVALID_LAST_SEQ = "Invalid lastSeq: {value}. It must be a non-negative integer"
INVALID_MARKET = "Invalid market: {value}. Market names are printable text"
UNKNOWN_MARKET = "Unknown market: {value}. This service quotes no market of that name"


class BadFilter(ValueError):
    """A handshake query the feed refuses with HTTP 400; `str()` is the wire text."""


@dataclass(frozen=True, slots=True)
class FeedFilter:
    """A connection's validated filters. Hashable: equal filters share serialized messages."""

    channels: tuple[str, ...] = (ODDS,)
    markets: tuple[str, ...] = ()  # as the client spelled them
    sports: frozenset[str] = frozenset()  # lower-case slugs
    leagues: frozenset[str] = frozenset()  # lower-case slugs
    event_ids: frozenset[int] = frozenset()
    status: str | None = None  # "live" or "prematch"
    last_seq: int | None = None

    @property
    def market_key(self) -> frozenset[str]:
        """The case-insensitive market names: the only filter that changes a message's text."""
        return frozenset(name.casefold() for name in self.markets)

    def wants(self, channel: str) -> bool:
        return channel in self.channels

    def matches_event(self, sport: str, league: str, event_id: int) -> bool:
        """The sport, leagues and eventIds filters (the status filter is applied separately)."""
        if self.sports and sport.casefold() not in self.sports:
            return False
        if self.leagues and league.casefold() not in self.leagues:
            return False
        return not self.event_ids or event_id in self.event_ids

    def matches_status(self, *statuses: str) -> bool:
        """True when any of the event statuses given (wire values) fits the status filter."""
        if self.status is None:
            return True
        wanted = "live" if self.status == "live" else "pending"
        return wanted in statuses


def _is_count(text: str) -> bool:
    """A non-negative integer in ASCII digits, short enough to stay a sane number."""
    return text.isascii() and text.isdigit() and len(text) <= 18


def _items(query: Mapping[str, str], name: str) -> list[str]:
    raw = query.get(name)
    if raw is None:
        return []
    return [part.strip() for part in raw.split(",") if part.strip()]


def _shown(text: str) -> str:
    """A name as a 400 may quote it: control characters escaped, length bounded."""
    return text[:40].encode("unicode_escape").decode("ascii")


def _check_markets(markets: list[str], known: Collection[str] | None) -> None:
    """Each name is printable and, when the source knows its catalog (`known`, case-folded),
    one of it: a name it never quotes would stream nothing but empty messages."""
    for name in markets:
        if not name.isprintable():
            raise BadFilter(INVALID_MARKET.format(value=_shown(name)))
        if known is not None and name.casefold() not in known:
            raise BadFilter(UNKNOWN_MARKET.format(value=_shown(name)))


def parse_filter(
    query: Mapping[str, str], known_markets: Collection[str] | None = None
) -> FeedFilter:
    """Validate the handshake query; raises `BadFilter` with the wire text of the first problem.

    `known_markets` are the case-folded market names the source quotes, or None when it cannot
    tell: then only control characters are refused.
    """
    for name in TEXT_PARAMETERS:
        if refusal := control_refusal(name, query.get(name) or ""):
            raise BadFilter(refusal)
    channels = _items(query, "channels") or [ODDS]
    for channel in channels:
        if channel.casefold() not in CHANNELS:
            raise BadFilter(INVALID_CHANNEL.format(channel=channel))
    channels = list(dict.fromkeys(channel.casefold() for channel in channels))

    sports = _items(query, "sport")
    if len(sports) > MAX_SPORTS:
        raise BadFilter(TOO_MANY_SPORTS)
    leagues = _items(query, "leagues")
    if len(leagues) > MAX_LEAGUES:
        raise BadFilter(TOO_MANY_LEAGUES)
    event_ids = _items(query, "eventIds")
    if len(event_ids) > MAX_EVENT_IDS:
        raise BadFilter(TOO_MANY_EVENT_IDS)
    markets = list(dict.fromkeys(_items(query, "markets")))
    if len(markets) > MAX_MARKETS:
        raise BadFilter(TOO_MANY_MARKETS)
    if leagues and event_ids:
        raise BadFilter(LEAGUES_AND_EVENT_IDS)

    status = query.get("status")
    if status is not None:
        status = status.strip().casefold()
        if status not in STATUS_FILTERS:
            raise BadFilter(INVALID_STATUS)
    if ODDS in channels and not markets:
        raise BadFilter(MARKETS_REQUIRED)
    _check_markets(markets, known_markets)

    ids: set[int] = set()
    for text in event_ids:
        if not _is_count(text):
            raise BadFilter(INVALID_EVENT_ID.format(value=text[:40]))
        ids.add(int(text))

    last_seq: int | None = None
    raw_seq = query.get("lastSeq")
    if raw_seq is not None and raw_seq.strip():
        if not _is_count(raw_seq.strip()):
            raise BadFilter(INVALID_LAST_SEQ.format(value=raw_seq.strip()[:40]))
        last_seq = int(raw_seq.strip())

    return FeedFilter(
        channels=tuple(channels),
        markets=tuple(markets),
        sports=frozenset(slug.casefold() for slug in sports),
        leagues=frozenset(slug.casefold() for slug in leagues),
        event_ids=frozenset(ids),
        status=status or None,
        last_seq=last_seq,
    )
