"""The fast path for feed odds messages: one msgspec decode straight into typed records.

Nearly every line of the feed is a `created` or `updated` message whose lines hold only numbers
and price strings. msgspec (in lax mode, which turns "1.850" into 1.85) decodes such a line into
the structs below in C, faster than a JSON parser builds dictionaries, and each line's object
arrives as the `prices` dictionary a `Line` keeps, once `hdp` and `max` are taken out.

Lines with a label (player props) do not fit: msgspec cannot take a name among the prices.
Such messages get a second decode, with every entry's values kept as numbers or text, and their
prices are converted here: slower than the first path, still several times faster than the
general one (a bookmaker's complete market list carries its props in every message).

The fast path is only ever a shortcut: `decode_odds` returns None for anything it is not sure
of (another message type, a suspended or missing price, a handicap that is not finite, an id
under another key), and the caller then parses the line the general way. A property test checks
that both paths give the same message for every line the fast one takes.
"""

from __future__ import annotations

import math
import sys
from datetime import datetime
from sys import intern
from typing import Annotated

import msgspec

from oddstui.api.models import Line, MarketQuote
from oddstui.api.models.fields import ENTRY_META, TIME_CACHE, as_url, parse_time

# A number msgspec takes only when it is finite: lax mode turns "nan" and "inf" into floats.
_Finite = Annotated[float, msgspec.Meta(ge=-sys.float_info.max, le=sys.float_info.max)]
# Keys of a line that the models never read as prices, besides hdp and max (popped first). The
# fast path leaves lines holding any of them to the general path.
_OTHER_META = ENTRY_META - {"hdp", "max"}
_KINDS = frozenset({"created", "updated", "deleted", "no_markets"})
# Keys of a labelled line that are neither prices nor read here: the general path judges them.
_LABELLED_META = ENTRY_META - {"hdp", "max", "label"}


class _Market(msgspec.Struct, gc=False):
    name: str
    updatedAt: str | None = None  # noqa: N815 - the wire's own name
    odds: list[dict[str, _Finite]] | None = None


class _OddsHead(msgspec.Struct, gc=False):
    """The fields of an odds message besides its markets."""

    type: str
    seq: int
    id: int
    bookie: str
    timestamp: str | None = None
    url: str | None = None


class _Odds(_OddsHead, gc=False):
    markets: list[_Market] | None = None


class _LabelledMarket(msgspec.Struct, gc=False):
    name: str
    updatedAt: str | None = None  # noqa: N815 - the wire's own name
    odds: msgspec.Raw = msgspec.Raw()  # decoded per market: most of them fit the first path


class _LabelledOdds(_OddsHead, gc=False):
    markets: list[_LabelledMarket] | None = None


class _OddsTexts(_OddsHead, gc=False):
    markets: list[msgspec.Raw] | None = None


_decode = msgspec.json.Decoder(_Odds, strict=False).decode
_decode_labelled = msgspec.json.Decoder(_LabelledOdds, strict=False).decode
_decode_with_texts = msgspec.json.Decoder(_OddsTexts, strict=False).decode
_decode_market = msgspec.json.Decoder(_Market, strict=False).decode
_decode_labelled_market = msgspec.json.Decoder(_LabelledMarket, strict=False).decode
_decode_entries = msgspec.json.Decoder(list[dict[str, _Finite]], strict=False).decode
_decode_texts = msgspec.json.Decoder(list[dict[str, float | str]], strict=False).decode
_NULL = msgspec.Raw(b"null")
DecodeError = msgspec.DecodeError  # ValidationError is a DecodeError


class NotFast(Exception):
    """The line needs the general path."""


NOT_FAST = (DecodeError, NotFast, ValueError, OverflowError)
"""What sends a line from the fast path to the general path (MalformedRecord is a ValueError:
the general path then decides, and counts the line if it is malformed)."""


OddsFields = tuple[str, int, datetime | None, int, str, str | None, tuple[MarketQuote, ...]]
"""An `OddsMessage`'s fields but its receive time, in order."""


def decode_odds(line: str | bytes) -> OddsFields | None:
    """`(kind, seq, timestamp, event_id, bookie, url, markets)` of an odds message, or None.

    Raises msgspec's DecodeError or NotFast when the line is not a plain odds message; the caller
    then takes the general path, which decides whether the line is malformed.
    """
    # A label among the prices: markets are decoded one by one (the first path fails on it).
    labelled = ('"label"' in line) if isinstance(line, str) else (b'"label"' in line)
    raw: _Odds | _LabelledOdds = _decode_labelled(line) if labelled else _decode(line)
    head = _head(raw)
    if head is None:
        return None
    markets = _markets(raw.markets) if _has_markets(head[0]) else ()
    return (*head, markets)


def decode_odds_head(line: str | bytes) -> OddsFields | None:
    """`decode_odds` without the quotes (`markets` is empty): for a reader that passes the line
    on as it came. The markets must still be a list of JSON values (or absent); what each holds
    is left to whoever reads the line. Raises as `decode_odds` does."""
    head = _head(_decode_with_texts(line))
    return None if head is None else (*head, ())


OddsTexts = tuple[str, int, datetime | None, int, str, str | None, list[bytes]]
"""`OddsFields` with each market's JSON text in place of its quote."""


def decode_odds_texts(line: str | bytes) -> OddsTexts | None:
    """`decode_odds`, with each market left as its JSON text, for `decode_market` to decode.

    For a reader that keeps each market's last text: a market whose text has not changed is
    the quote it already holds, and need not be decoded again. Like `decode_odds`, it is only a
    shortcut: what it and `decode_market` take, they take as the general path would (a property
    test holds them to it), and they raise as `decode_odds` does for anything else.
    """
    raw = _decode_with_texts(line)
    head = _head(raw)
    if head is None:
        return None
    texts = list(map(bytes, raw.markets or ())) if _has_markets(head[0]) else []
    return (*head, texts)


def decode_market(text: bytes) -> MarketQuote:
    """One market of `decode_odds_texts`, as `decode_odds` decodes it. Raises NotFast or
    DecodeError for what needs the general path."""
    labelled = b'"label"' in text  # as `decode_odds` chooses its decode, for one market
    return _market(_decode_labelled_market(text) if labelled else _decode_market(text))


def _head(raw: _OddsHead) -> tuple[str, int, datetime | None, int, str, str | None] | None:
    kind = raw.type
    if kind not in _KINDS or not raw.bookie:
        return None
    stamp = raw.timestamp
    url = raw.url
    # Bookmaker and market names are interned: the book's dictionaries then match them by
    # identity, without reading their own copies of the names, which are seldom in the cache.
    return (
        kind,
        raw.seq,
        None if stamp is None else parse_time(stamp, "timestamp"),
        raw.id,
        intern(raw.bookie),
        None if url is None else as_url(url),
    )


def _has_markets(kind: str) -> bool:
    return kind == "created" or kind == "updated"


def _markets(markets: list[_Market] | list[_LabelledMarket] | None) -> tuple[MarketQuote, ...]:
    return tuple(_market(market) for market in markets) if markets else ()


def _market(market: _Market | _LabelledMarket) -> MarketQuote:
    name = market.name
    if not name:
        raise NotFast
    stamp = market.updatedAt
    updated = (TIME_CACHE.get(stamp) or parse_time(stamp, "updatedAt")) if stamp else None
    odds = market.odds
    if not odds or odds == _NULL:
        lines: tuple[Line, ...] = ()
    elif isinstance(market, _Market):
        lines = _lines(market.odds)  # type: ignore[arg-type]
    elif b'"label"' in bytes(market.odds):  # its labels are text: the next decode would fail
        lines = _labelled_lines(_decode_texts(odds))  # type: ignore[arg-type]
    else:
        try:
            lines = _lines(_decode_entries(odds))  # type: ignore[arg-type]
        except msgspec.ValidationError:
            lines = _labelled_lines(_decode_texts(odds))  # type: ignore[arg-type]
    return MarketQuote(intern(name), updated, lines)


def _lines(entries: list[dict[str, float]]) -> tuple[Line, ...]:
    lines: list[Line] = []
    append = lines.append
    pop = dict.pop
    for prices in entries:
        hdp = pop(prices, "hdp", None)
        maximum = pop(prices, "max", None)
        # A suspended side (1.00 or less) and meta keys are for the general path to judge. The
        # loop is faster than min() on two or three prices.
        for price in prices.values():
            if price <= 1.0:
                raise NotFast
        if not _OTHER_META.isdisjoint(prices):
            raise NotFast
        append(Line(hdp, None, prices, maximum))
    return tuple(lines)


def _labelled_lines(entries: list[dict[str, float | str]]) -> tuple[Line, ...]:
    """`_lines` for entries whose values came as numbers or text (a label among them)."""
    lines: list[Line] = []
    for entry in entries:
        label = entry.pop("label", None)
        hdp = entry.pop("hdp", None)
        maximum = entry.pop("max", None)
        if label is not None and type(label) is not str:
            raise NotFast
        for number in (hdp, maximum):
            if number is not None and (type(number) is not float or not math.isfinite(number)):
                raise NotFast
        if not _LABELLED_META.isdisjoint(entry):
            raise NotFast
        prices: dict[str, float] = {}
        for side, value in entry.items():
            price = float(value)  # text that is no number raises ValueError: the general path
            if not 1.0 < price < math.inf:
                raise NotFast
            prices[side] = price
        lines.append(
            Line(
                hdp,  # type: ignore[arg-type]
                None if label is None else intern(label),
                prices,
                maximum,  # type: ignore[arg-type]
            )
        )
    return tuple(lines)
