"""Odds texts for clients of a source that keeps each message's own text (the relay, a replay):
the line as it came, or it cut to a client's markets.

A client whose market filter covers every market the source carries gets the line exactly as it
came (no parsing, no encoding: the common case costs nothing). A narrower filter gets the line
with the other markets taken out, encoded once per distinct filter.
"""

from __future__ import annotations

from typing import Any, Protocol

from oddstui.server.feed.messages import WITH_MARKETS, dumps

try:
    from orjson import loads
except ImportError:  # pragma: no cover - depends on the environment
    from json import loads  # type: ignore[assignment]


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
    """The message with only the markets whose casefolded name is in `market_key`."""
    raw: dict[str, Any] = loads(line)
    markets = raw.get("markets")
    if isinstance(markets, list):
        raw["markets"] = [
            market
            for market in markets
            if isinstance(market, dict) and str(market.get("name", "")).casefold() in market_key
        ]
    return dumps(raw)
