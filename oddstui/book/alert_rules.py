"""Alert rules and the state they are judged on: plain data, no textual, no I/O.

A rule names one event and what to watch in it. `MatchState` is what one event looks like at
one moment (its status, scores, clock phase, prices, arbitrages, and each price's recent path);
`alert_eval.fire(rule, before, after)` says what the rule fires between two such moments. The
desk builds states from its feed; `bt` (a backtest) builds them from recordings and runs the
same rules.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from oddstui.api.redact import plain

#: Settled and cancelled events have ended; their status never changes again.
ENDED = frozenset({"settled", "cancelled"})

LineKey = tuple[float | None, str | None]
"""A market's line: its handicap or total, and a player's label."""
PriceKey = tuple[str, float | None, str | None, str, str]
"""(market, hdp, label, side, bookmaker): one bookmaker's price of one side."""
Trail = tuple[tuple[float, float], ...]
"""A price's recent path, oldest first: (Unix time, decimal price)."""
ArbLeg = tuple[str, float, str]
"""(side, price, bookmaker) of one leg of an arbitrage."""

_EMPTY: Mapping[Any, Any] = MappingProxyType({})
_HALFTIME = re.compile(r"half[\s-]?time", re.IGNORECASE)


def at_halftime(running: bool, status_detail: str) -> bool:
    """The match clock stands at half-time (`statusDetail` says `Halftime`)."""
    return not running and bool(_HALFTIME.search(status_detail or ""))


@dataclass(frozen=True, slots=True)
class PriceRule:
    """Alert when the best price of one side crosses `threshold` (upwards when `above`)."""

    event_id: int
    market: str
    side: str
    threshold: float
    above: bool = True
    hdp: float | None = None
    label: str | None = None

    @property
    def line(self) -> LineKey:
        return (self.hdp, self.label)

    def describe(self) -> str:
        line = "" if self.hdp is None else f" {self.hdp:g}"
        who = f" {plain(self.label)}" if self.label else ""
        arrow = "≥" if self.above else "≤"
        return f"{plain(self.market)}{line}{who} {plain(self.side)} {arrow} {self.threshold:g}"

    def holds(self, price: float) -> bool:
        return price >= self.threshold if self.above else price <= self.threshold


@dataclass(frozen=True, slots=True)
class ArbitrageRule:
    """Alert on a new arbitrage in the event whose profit is at least `min_profit` percent."""

    event_id: int
    min_profit: float

    def describe(self) -> str:
        return f"arbitrage ≥ {self.min_profit:g}%"


@dataclass(frozen=True, slots=True)
class MatchRule:
    """Alert when the match reaches a moment: `halftime`, `fulltime` or a `redcard`."""

    event_id: int
    moment: str

    def describe(self) -> str:
        return MOMENT_WORDS.get(self.moment, self.moment)


#: The moments a `MatchRule` knows, as a trader reads them.
MOMENT_WORDS = {"halftime": "half-time", "fulltime": "full-time", "redcard": "red card"}


#: In play, a shortening under these percents (within a steam rule's window) is taken for the
#: match's ordinary course, not money: a favourite's price closes in on 1.0 as time runs out,
#: and the faster a sport scores the more its prices swing between scores. Each is set above the
#: largest ML shortening in 60 s with no score change that `benchmarks/steam_floor.py` saw in
#: two runs of the built-in world (seeds 5 and 7; docs/screens.md). Where even that is most of
#: the price, steam in play is no signal: the floor is 100 (never reached: off in play).
#: Before the match the rule's own move is the floor.
IN_PLAY_STEAM_FLOOR: Mapping[str, float] = MappingProxyType(
    {
        "football": 15.0,  # seen 10.5
        "darts": 15.0,  # 10.4
        "handball": 30.0,  # 22.1
        "american-football": 35.0,  # 25.2
        "basketball": 40.0,  # 28.7
        "water-polo": 45.0,  # 30.4
        "beach-handball": 50.0,  # 32.9
        "futsal": 55.0,  # 39.4
        "rugby": 60.0,  # 41.3
        "badminton": 100.0,  # 71.7
        "table-tennis": 100.0,  # 76.3
        "esports": 100.0,  # 77.5
        "squash": 100.0,  # 95.9
    }
)
#: The floor of a sport the table does not name (in play its shortening stayed under 6 %).
IN_PLAY_STEAM_FLOOR_OTHER = 10.0


def steam_floor(sport: str, status: str) -> float:
    """The least shortening (percent) that is steam for an event of `sport` in `status`."""
    if status != "live":
        return 0.0
    return IN_PLAY_STEAM_FLOOR.get(sport, IN_PLAY_STEAM_FLOOR_OTHER)


@dataclass(frozen=True, slots=True)
class SteamRule:
    """Alert on a steam move: a price of `market` shortening `move_pct` percent or more within
    `within_s` seconds at one of `bookmakers` (any bookmaker when empty). Money backs a price
    in: a lengthening price is never steam, and in play the sport's floor
    (`IN_PLAY_STEAM_FLOOR`) applies when it is above `move_pct`."""

    event_id: int
    move_pct: float
    within_s: float
    bookmakers: tuple[str, ...] = ()
    market: str = "ML"

    def describe(self) -> str:
        books = ", ".join(plain(book) for book in self.bookmakers) or "any book"
        return f"steam {plain(self.market)} ≥ {self.move_pct:g}% in {self.within_s:g}s at {books}"

    def watches(self, bookmaker: str) -> bool:
        if not self.bookmakers:
            return True
        wanted = bookmaker.casefold()
        return any(book.casefold() == wanted for book in self.bookmakers)


Rule = PriceRule | ArbitrageRule | MatchRule | SteamRule


@dataclass(frozen=True, slots=True)
class MatchState:
    """One event at one moment, as the rules read it."""

    event_id: int
    title: str
    """The event's name (`Home v Away`), as every firing names it."""
    at: float
    """Unix time of the observation (the recording's time in a backtest)."""
    status: str = ""
    sport: str = ""
    """The sport's slug (`football`), for the steam floor; blank when unknown."""
    score: tuple[int, int] | None = None
    """None when unknown or not trusted (after a reconnect)."""
    periods: Mapping[str, tuple[int, int]] = field(default_factory=lambda: _EMPTY)
    """The scores' periods map (`p1`, `ft`, `ot`, ...), as the feed carries it."""
    halftime: bool = False
    """The match clock stands at half-time (its status detail says so)."""
    red_cards: tuple[int, int] | None = None
    """Red cards shown (home, away), when the source carries them; None when it does not."""
    prices: Mapping[PriceKey, float] = field(default_factory=lambda: _EMPTY)
    trails: Mapping[PriceKey, Trail] = field(default_factory=lambda: _EMPTY)
    arbitrages: Mapping[tuple[str, LineKey], tuple[float, tuple[ArbLeg, ...]]] = field(
        default_factory=lambda: _EMPTY
    )
    """(market, line) -> (profit %, legs) of every arbitrage the event has now."""

    @property
    def full_time(self) -> bool:
        """Regulation is over: the scores carry `ft`, or the match is settled."""
        return "ft" in self.periods or self.status == "settled"


@dataclass(frozen=True, slots=True)
class Firing:
    """What a rule fired: always naming the event, in `title` and in `message`."""

    rule: Rule
    event_id: int
    kind: str
    """`price`, `arbitrage`, `halftime`, `fulltime`, `redcard` or `steam`."""
    event: str
    """The event's name."""
    message: str
    """One line, starting with the event's name."""
    at: float
    key: tuple[Any, ...] = ()
    """What makes two firings of the rule the same crossing (a market and line, a price)."""
    value: float | None = None
    """The price, profit % or move % that made it fire."""
