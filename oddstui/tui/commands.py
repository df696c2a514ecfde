"""The command palette (ctrl+p): jump to a screen, a sport, a league or an event."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content

from oddstui.tui.text import clean

#: (mode, label) of the top-level screens, in digit order.
SCREENS = (
    ("sports", "Sports"),
    ("live", "Live"),
    ("watchlist", "Watchlist"),
    ("arbitrage", "Arbitrage"),
    ("value", "Value bets"),
    ("dropping", "Dropping odds"),
    ("bets", "Bets"),
    ("books", "Books"),
    ("stale", "Stale lines"),
)
#: The palette searches at most this many events (the most recent listings first).
EVENT_LIMIT = 3000
#: Hits shown per query.
MAX_HITS = 30


class JumpCommands(Provider):
    """Screens, sports, leagues and events the app knows, matched fuzzily."""

    def _targets(self) -> Iterator[tuple[str, Callable[[], Any], str]]:
        app: Any = self.app
        for number, (mode, label) in enumerate(SCREENS, 1):
            yield f"Screen: {label}", partial(app.switch_mode, mode), f"key {number}"
        yield "Screen: Settings", app.action_settings, "key s"
        yield "Screen: Alert rules", app.action_alert_rules, "key A"
        board = app.hub.board
        for sport in board.sports.values():
            yield f"Sport: {clean(sport.name)}", partial(app.open_sport, sport.slug), "leagues"
        for slug, leagues in board.leagues.items():
            sport_name = board.sports[slug].name if slug in board.sports else slug
            for league in leagues:
                yield (
                    f"League: {clean(league.name)}",
                    partial(app.open_league, slug, league.slug),
                    clean(sport_name),
                )
        for count, event in enumerate(list(board.events.values())):
            if count >= EVENT_LIMIT:
                break
            yield (
                f"Event: {clean(event.title)}",
                partial(app.open_event, event.id),
                clean(f"{event.sport_name} · {event.league_name}"),
            )

    async def discover(self) -> Hits:
        for mode, label in SCREENS:
            app: Any = self.app
            yield DiscoveryHit(Content(f"Screen: {label}"), partial(app.switch_mode, mode))
        yield DiscoveryHit(Content("Screen: Settings"), getattr(self.app, "action_settings"))  # noqa: B009
        yield DiscoveryHit(Content("Screen: Alert rules"), getattr(self.app, "action_alert_rules"))  # noqa: B009

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        scored = []
        for text, command, help_text in self._targets():
            score = matcher.match(text)
            if score > 0:
                scored.append((score, text, command, help_text))
        # Only the best few: the palette draws every hit it gets, and thousands are slow.
        scored.sort(key=lambda item: item[0], reverse=True)
        for score, text, command, help_text in scored[:MAX_HITS]:
            yield Hit(score, _highlight(matcher, text), command, text=text, help=help_text)


def _highlight(matcher: Any, text: str) -> Content:
    """The matched letters in bold; unlike `Matcher.highlight`, the text is never markup."""
    content = Content(text)
    _, offsets = matcher.fuzzy_search.match(matcher.query, text)
    for offset in offsets:
        content = content.stylize("bold underline", offset, offset + 1)
    return content
