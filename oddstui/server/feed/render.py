"""Odds texts for clients of a source that keeps each message's own text (the relay, a replay):
the line as it came, or it cut to a client's markets.

A client whose market filter covers every market the source carries gets the line exactly as it
came (no parsing, no encoding: the common case costs nothing). A narrower filter gets the line
with the other markets taken out, once per distinct filter: msgspec reads the line's fields and
markets as raw JSON texts and only each market's name, and writes the kept texts back as they
were (a third of the time of parsing and re-encoding the whole message, which is what a relay
with 20 markets did for every line to clients asking for three).
"""

from __future__ import annotations

from typing import Any, Protocol

import msgspec

from oddstui.server.feed.messages import WITH_MARKETS


class _Named(msgspec.Struct):
    name: Any = ""


_fields = msgspec.json.Decoder(dict[str, msgspec.Raw]).decode
_items = msgspec.json.Decoder(list[msgspec.Raw]).decode
_named = msgspec.json.Decoder(_Named).decode
_encode = msgspec.json.Encoder().encode


class LineChange(Protocol):
    @property
    def seq(self) -> int: ...

    @property
    def kind(self) -> str: ...

    @property
    def line(self) -> str: ...


class LineRenderer:
    """One fan-out's texts (a burst of messages, or a replay); see `FeedCore`'s `Renderer`."""

    def __init__(self, carried: frozenset[str]) -> None:
        self._carried = carried  # the source's markets, casefolded
        self._cut: dict[tuple[int, frozenset[str]], str] = {}

    def text(self, change: LineChange, market_key: frozenset[str]) -> str:
        if change.kind not in WITH_MARKETS or self._carried <= market_key:
            return change.line
        key = (change.seq, market_key)
        text = self._cut.get(key)
        if text is None:
            text = self._cut[key] = cut_markets(change.line, market_key)
        return text


def cut_markets(line: str, market_key: frozenset[str]) -> str:
    """The message with only the markets whose casefolded name is in `market_key` (a market
    that is not an object goes too); everything else as it was written."""
    fields: dict[str, Any] = _fields(line)
    markets = fields.get("markets")
    if markets is not None and memoryview(markets)[:1] == b"[":
        fields["markets"] = [market for market in _items(markets) if _kept(market, market_key)]
    return _encode(fields).decode()


def _kept(market: msgspec.Raw, market_key: frozenset[str]) -> bool:
    try:
        name = _named(market).name
    except msgspec.ValidationError:  # not an object
        return False
    return str(name).casefold() in market_key
