"""The feed's messages and the parsing of its text frames.

A text frame may carry several JSON messages separated by newlines (WIRE.md, "Framing").
`parse_frame` splits it, parses each message and counts, without raising, every line that is
not JSON, has an unknown `type`, or does not fit the models. It sits on the socket reader's hot
path, so it does one dictionary look-up per message to dispatch and nothing else it can avoid.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import msgspec

from oddstui.api.errors import MalformedRecord
from oddstui.api.models import (
    Clock,
    MarketQuote,
    Scores,
    parse_clock,
    parse_markets,
    parse_scores,
    parse_time,
)
from oddstui.api.models.fields import as_int, as_url
from oddstui.api.odds_decoder import NOT_FAST, decode_odds, decode_odds_head

try:  # orjson decodes about three times faster; the standard library is the fallback.
    from orjson import loads as _loads
except ImportError:  # pragma: no cover - depends on the environment
    from json import loads as _loads  # type: ignore[assignment]

JSON_DECODER = _loads.__module__ or "json"


class OddsMessage(msgspec.Struct, gc=False):
    """`created`, `updated`, `deleted` or `no_markets` for one (event, bookmaker) pair.

    `markets` may be the bookmaker's complete list (the built-in service) or only the markets
    that changed (the public service): apply it by merging on market name. A struct, like the
    quotes it carries: thousands are made a second.
    """

    kind: str
    seq: int
    timestamp: datetime | None
    event_id: int
    bookie: str
    url: str | None
    markets: tuple[MarketQuote, ...]
    received: float = 0.0  # time.monotonic() when the frame arrived
    line: str = ""  # the message's own JSON text, kept only when asked (`keep_lines`)


@dataclass(slots=True, eq=True)
class ScoreMessage:
    """A live score change. No seq, no bookmaker; not replayed after a reconnect."""

    event_id: int
    timestamp: datetime | None
    scores: Scores
    received: float = 0.0
    line: str = field(default="", compare=False)
    #: The match clock as read when the message was sent: the built-in service's addition
    #: (docs/desk.md, "Wire"), sent when a clock stops or starts; None from other services.
    clock: Clock | None = None


@dataclass(slots=True, eq=True)
class StatusMessage:
    """One status transition (pending, live, settled, cancelled) with the current scores."""

    event_id: int
    timestamp: datetime | None
    status: str
    scores: Scores
    received: float = 0.0
    line: str = field(default="", compare=False)
    clock: Clock | None = None  # as in ScoreMessage


@dataclass(slots=True, eq=True)
class RelayStatus:
    """From an `oddstui relay` [ours]: the state of the relay's own upstream (`live`,
    `offline`, `replaced`, ...). It comes in the welcome's `relay` field and as a
    `{"type": "relay", "upstream": ..., "detail": ...}` message whenever it changes."""

    upstream: str
    detail: str = ""
    received: float = field(default=0.0, compare=False)


@dataclass(slots=True, eq=True)
class ReplayInfo:
    """From `oddstui replay` [ours]: the feed is a recording played back. The welcome's `replay`
    field gives the speed, the recorded time when it was sent and the recording's last time."""

    speed: float
    time: float  # recorded unix time at `received`
    until: float | None = None  # the recording's last record: the replay ends there
    received: float = field(default=0.0, compare=False)

    def now(self, monotonic: float) -> float:
        """The recorded time being replayed at local monotonic time `monotonic`."""
        at = self.time + max(monotonic - self.received, 0.0) * self.speed
        return at if self.until is None else min(at, self.until)


@dataclass(slots=True, eq=True)
class Welcome:
    """Sent right after connecting: the filters in force. `seq` is the service's current
    sequence (the built-in service sends it; the public one may not)."""

    bookmakers: tuple[str, ...]
    market_filter: tuple[str, ...]
    channels: tuple[str, ...]
    sport_filter: tuple[str, ...]
    leagues_filter: tuple[str, ...]
    event_ids_filter: tuple[int, ...]
    status_filter: str | None
    seq: int | None
    received: float = 0.0
    relay: RelayStatus | None = None  # present when the feed comes through an `oddstui relay`
    # The built-in service's own field: every odds message lists all the bookmaker's markets.
    complete_markets: bool = False
    replay: ReplayInfo | None = None  # present when the feed is an `oddstui replay`


@dataclass(slots=True, eq=True)
class ResyncRequired:
    """The replay cannot be served: rebuild from a REST snapshot."""

    reason: str
    seq: int | None
    received: float = 0.0


Message = OddsMessage | ScoreMessage | StatusMessage | Welcome | ResyncRequired | RelayStatus


def _timestamp(raw: dict[str, Any]) -> datetime | None:
    value = raw.get("timestamp")
    return None if value is None else parse_time(value, "timestamp")


def _event_id(raw: dict[str, Any]) -> int:
    value = raw.get("id")
    if value is None:
        value = raw.get("eventId")
    if value is None:
        raise MalformedRecord("message has no id")
    return as_int(value, "id")


def _odds(raw: dict[str, Any], received: float) -> OddsMessage:
    seq = raw.get("seq")
    if seq is None:
        raise MalformedRecord("odds message has no seq")
    bookie = raw.get("bookie")
    if not isinstance(bookie, str) or not bookie:
        raise MalformedRecord("odds message has no bookie")
    kind = raw["type"]
    event_id = _event_id(raw)
    markets = parse_markets(raw.get("markets")) if kind == "created" or kind == "updated" else ()
    return OddsMessage(
        kind,
        seq if type(seq) is int else as_int(seq, "seq"),
        _timestamp(raw),
        event_id,
        bookie,
        as_url(raw.get("url")),
        markets,
        received,
    )


def _score(raw: dict[str, Any], received: float) -> ScoreMessage:
    return ScoreMessage(
        _event_id(raw),
        _timestamp(raw),
        parse_scores(raw.get("scores")),
        received,
        clock=_clock(raw),
    )


def _status(raw: dict[str, Any], received: float) -> StatusMessage:
    status = raw.get("status")
    if not isinstance(status, str) or not status:
        raise MalformedRecord("status message has no status")
    return StatusMessage(
        _event_id(raw),
        _timestamp(raw),
        status,
        parse_scores(raw.get("scores")),
        received,
        clock=_clock(raw),
    )


def _clock(raw: dict[str, Any]) -> Clock | None:
    """Lenient: a clock field that does not fit is ignored; the scores still count."""
    value = raw.get("clock")
    if value is None:
        return None
    try:
        return parse_clock(value)
    except ValueError:
        return None


def _texts(raw: dict[str, Any], key: str) -> tuple[str, ...]:
    value = raw.get(key)
    if value is None:
        return ()
    if isinstance(value, str):  # tolerate a comma-separated string
        return tuple(part for part in value.split(",") if part)
    if not isinstance(value, list):
        raise MalformedRecord(f"welcome.{key} is not a list")
    return tuple(str(item) for item in value)


def _welcome(raw: dict[str, Any], received: float) -> Welcome:
    seq = raw.get("seq")
    status = raw.get("status_filter")
    return Welcome(
        bookmakers=_texts(raw, "bookmakers"),
        market_filter=_texts(raw, "market_filter"),
        channels=_texts(raw, "channels"),
        sport_filter=_texts(raw, "sport_filter"),
        leagues_filter=_texts(raw, "leagues_filter"),
        event_ids_filter=tuple(
            as_int(item, "eventIds_filter") for item in _texts(raw, "eventIds_filter")
        ),
        status_filter=None if status in (None, "") else str(status),
        seq=None if seq is None else as_int(seq, "welcome.seq"),
        received=received,
        relay=_relay(raw["relay"], received) if isinstance(raw.get("relay"), dict) else None,
        complete_markets=raw.get("complete_markets") is True,
        replay=_replay(raw.get("replay"), received),
    )


def _replay(raw: Any, received: float) -> ReplayInfo | None:
    """Lenient: a replay field that does not fit is ignored, never a malformed welcome."""
    if not isinstance(raw, dict):
        return None
    speed, at, until = raw.get("speed"), raw.get("time"), raw.get("until")
    numbers = (int, float)
    if not isinstance(speed, numbers) or not isinstance(at, numbers) or speed <= 0:
        return None
    return ReplayInfo(
        float(speed), float(at), float(until) if isinstance(until, numbers) else None, received
    )


def _relay(raw: dict[str, Any], received: float) -> RelayStatus:
    upstream = raw.get("upstream")
    if not isinstance(upstream, str) or not upstream:
        raise MalformedRecord("relay status has no upstream state")
    detail = raw.get("detail")
    return RelayStatus(upstream, detail if isinstance(detail, str) else "", received)


def _resync(raw: dict[str, Any], received: float) -> ResyncRequired:
    seq = raw.get("seq")
    reason = raw.get("reason")
    return ResyncRequired(
        "" if reason is None else str(reason),
        None if seq is None else as_int(seq, "resync_required.seq"),
        received,
    )


_PARSERS: dict[Any, Callable[[dict[str, Any], float], Message]] = {
    "created": _odds,
    "updated": _odds,
    "deleted": _odds,
    "no_markets": _odds,
    "score": _score,
    "status": _status,
    "welcome": _welcome,
    "resync_required": _resync,
    "relay": _relay,
}

# Anything a hostile or broken line can make the parsers raise; none of it may escape.
_BAD_LINE = (ValueError, TypeError, KeyError, AttributeError, RecursionError, OverflowError)


def parse_frame(frame: str | bytes, received: float = 0.0) -> tuple[list[Message], int]:
    """The messages of one text frame, in order, and how many lines were malformed.

    Empty lines are ignored. A line is malformed when it is not a JSON object, its `type` is
    unknown, or it does not fit the models (MalformedRecord is a ValueError).
    """
    messages: list[Message] = []
    malformed = 0
    for message in iter_frame(frame, received):
        if message is None:
            malformed += 1
        else:
            messages.append(message)
    return messages, malformed


def iter_frame(
    frame: str | bytes, received: float = 0.0, keep_lines: bool = False, quotes: bool = True
) -> Iterator[Message | None]:
    """`parse_frame` one line at a time, None for a malformed line.

    The feed's reader applies each message as soon as it is parsed, while its records are still
    in the processor's cache. Each line tries the fast decoder for odds messages first and the
    general path after. With `keep_lines`, odds, score and status messages carry their own JSON
    text in `line` (a relay forwards it as received: prices keep the book's own precision).
    With `keep_lines` and not `quotes`, a plain odds message is decoded without its markets
    (`markets` is empty; they must be a list, what is in them is the line's reader's to judge):
    for a relay, which passes the line on and never reads a price.
    """
    if isinstance(frame, bytes | bytearray | memoryview):
        try:
            frame = bytes(frame).decode("utf-8")
        except UnicodeDecodeError:
            yield None
            return
    loads = _loads
    parsers = _PARSERS
    decode = decode_odds if quotes or not keep_lines else decode_odds_head
    for line in frame.split("\n"):
        if not line:
            continue
        try:
            fast = decode(line)
            if fast is not None:
                yield OddsMessage(*fast, received, line if keep_lines else "")
                continue
        except NOT_FAST:
            if line.isspace():
                continue
        try:
            raw = loads(line)
            parse = parsers.get(raw.get("type")) if type(raw) is dict else None
            message = None if parse is None else parse(raw, received)
        except _BAD_LINE:
            message = None
        if keep_lines and isinstance(message, OddsMessage | ScoreMessage | StatusMessage):
            message.line = line
        yield message
