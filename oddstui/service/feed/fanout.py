"""Odds messages for many connections, serialized once per distinct market filter.

A `TickCache` lives for one fan-out (one world tick, or one replay). For each journal entry it
builds the message head once, each market's JSON once, and each filter's full text once;
connections with equal market filters share the same string.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from oddstui.service.feed.messages import WITH_MARKETS, dumps, odds_head, odds_text

if TYPE_CHECKING:
    from oddstui.service.feed.source import OddsChange, WorldView

_FOLDED: dict[str, str] = {}  # market name -> casefolded; names are a small fixed set


def _folded(name: str) -> str:
    folded = _FOLDED.get(name)
    if folded is None:
        folded = _FOLDED[name] = name.casefold()
    return folded


class _EntryTexts:
    __slots__ = ("head", "markets", "by_filter")

    def __init__(self, head: str, markets: list[tuple[str, Any]] | None) -> None:
        self.head = head
        self.markets = markets  # (casefolded name, Market), or None for kinds without markets
        self.by_filter: dict[frozenset[str], str] = {}


class TickCache:
    def __init__(self, world: WorldView) -> None:
        self._world = world
        self._entries: dict[int, _EntryTexts] = {}
        self._market_json: dict[tuple[int, str], str] = {}

    def text(self, change: OddsChange, market_key: frozenset[str]) -> str:
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

    def _entry(self, change: OddsChange) -> _EntryTexts:
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

    def _render(self, change: OddsChange, entry: _EntryTexts, market_key: frozenset[str]) -> str:
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
