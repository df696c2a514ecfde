"""Odds messages for many connections, serialized once per distinct market filter.

A `TickCache` lives for one fan-out (one tick of a source, or one replay). For each journal entry it
builds the message head once, each market's JSON once, and each filter's full text once;
connections with equal market filters share the same string.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from oddstui.server.feed.core import Change
from oddstui.server.feed.messages import WITH_MARKETS, dumps, odds_head, odds_text

_FOLDED: dict[str, str] = {}  # market name -> casefolded; names are a small fixed set


def _folded(name: str) -> str:
    folded = _FOLDED.get(name)
    if folded is None:
        folded = _FOLDED[name] = name.casefold()
    return folded


class TimedChange(Change, Protocol):
    @property
    def timestamp(self) -> str:
        """ISO-8601 time of the change, as the message carries it."""
        ...


class NamedMarket(Protocol):
    @property
    def name(self) -> str: ...


class MarketView(Protocol):
    """What a `TickCache` reads from its source: deep links and each pair's current markets."""

    def url(self, event_id: int, bookie: str) -> str: ...

    def markets(self, event_id: int, bookie: str) -> Sequence[NamedMarket]: ...

    def market_wire(self, market: Any, bookie: str) -> dict[str, Any]: ...


class _EntryTexts:
    __slots__ = ("head", "markets", "by_filter")

    def __init__(self, head: str, markets: list[tuple[str, NamedMarket]] | None) -> None:
        self.head = head
        self.markets = markets  # (casefolded name, Market), or None for kinds without markets
        self.by_filter: dict[frozenset[str], str] = {}


class TickCache:
    def __init__(self, world: MarketView) -> None:
        self._world = world
        self._entries: dict[int, _EntryTexts] = {}
        self._market_json: dict[tuple[int, str], str] = {}

    def text(self, change: TimedChange, market_key: frozenset[str]) -> str:
        """The wire text of `change` for a connection whose market filter is `market_key`."""
        entry = self._entries.get(change.seq)
        if entry is None:
            entry = self._entry(change)
            self._entries[change.seq] = entry
        text = entry.by_filter.get(market_key)
        if text is None:
            text = self._render(change, entry, market_key)
            entry.by_filter[market_key] = text
        return text

    def _entry(self, change: TimedChange) -> _EntryTexts:
        world = self._world
        head = odds_head(
            change.kind,
            change.seq,
            change.timestamp,
            change.event_id,
            change.bookie,
            world.url(change.event_id, change.bookie) if change.kind in WITH_MARKETS else "",
        )
        markets = None
        if change.kind in WITH_MARKETS:
            markets = [
                (_folded(market.name), market)
                for market in world.markets(change.event_id, change.bookie)
            ]
        return _EntryTexts(head, markets)

    def _render(self, change: TimedChange, entry: _EntryTexts, market_key: frozenset[str]) -> str:
        if entry.markets is None:
            return odds_text(entry.head, None)
        texts = []
        for folded, market in entry.markets:
            if folded not in market_key:
                continue
            cache_key = (change.seq, folded)
            text = self._market_json.get(cache_key)
            if text is None:
                text = dumps(self._world.market_wire(market, change.bookie))
                self._market_json[cache_key] = text
            texts.append(text)
        return odds_text(entry.head, texts)
