"""The records of the simulated world, and their wire shapes.

These are the shared vocabulary of the world (which mutates them), the REST routes and the feed
(which read them). Times are simulated Unix seconds (floats) unless a name says `_ms`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

PENDING, LIVE, SETTLED, CANCELLED = "pending", "live", "settled", "cancelled"
STATUSES = (PENDING, LIVE, SETTLED, CANCELLED)


def iso(ts: float) -> str:
    """ISO-8601 UTC with milliseconds and a `Z`, as the wire wants."""
    whole = datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%dT%H:%M:%S")
    return f"{whole}.{int(ts * 1000) % 1000:03d}Z"


@dataclass(slots=True)
class Sport:
    slug: str
    name: str
    has_draw: bool = False  # a regulation draw is possible: ML is three-way (home/draw/away)

    def to_wire(self) -> dict[str, str]:
        return {"name": self.name, "slug": self.slug}


@dataclass(slots=True)
class League:
    slug: str
    name: str
    sport: str  # sport slug

    def to_wire(self) -> dict[str, str]:
        return {"name": self.name, "slug": self.slug}


@dataclass(slots=True)
class Participant:
    id: int
    name: str
    sport: str  # sport slug
    has_crest: bool

    def to_wire(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "sport": self.sport}


@dataclass(slots=True)
class Bookmaker:
    id: int
    name: str  # case-sensitive display name, the key everywhere on the wire
    active: bool
    margin: float  # the book's overround target, e.g. 0.05
    precision: int  # decimal places of its prices
    sharp: bool  # a low-margin reference book used for fair prices
    latency: float  # simulated seconds it takes to follow a move
    site: str  # base of its deep links, e.g. "https://bet365.example"
    noise: float = 0.006  # relative spread of its prices around its own fair view
    alt_lines: int = 0  # alternative lines it quotes each side of the main line
    tier: int = 1  # the deepest market tier it quotes (see markets.MarketDef.tier)
    max_stake: int = 500  # the ML `max`
    deep_links: bool = True  # False: its urls are "N/A"
    sister_of: str | None = None  # a white label: copies this book's prices with its own margin
    copy_delay: float = 0.0  # a sister's simulated seconds between its parent's change and its own

    def to_wire(self) -> dict[str, Any]:
        return {"name": self.name, "active": self.active}


@dataclass(slots=True)
class Scores:
    home: int = 0
    away: int = 0
    periods: dict[str, tuple[int, int]] = field(default_factory=dict)
    red_cards: tuple[int, int] | None = None  # (home, away); None in sports without them

    def to_wire(self) -> dict[str, Any]:
        wire: dict[str, Any] = {
            "home": self.home,
            "away": self.away,
            "periods": {k: {"home": h, "away": a} for k, (h, a) in self.periods.items()},
        }
        if self.red_cards is not None:  # ours: the seed's Scores carry no cards
            wire["redCards"] = {"home": self.red_cards[0], "away": self.red_cards[1]}
        return wire


@dataclass(slots=True)
class Clock:
    minute: int
    played_seconds: int
    period: int
    running: bool
    status_detail: str
    injury_time: int = 0
    serve: str | None = None  # "home" or "away" in tennis-like sports

    def to_wire(self) -> dict[str, Any]:
        wire: dict[str, Any] = {
            "minute": self.minute,
            "playedSeconds": self.played_seconds,
            "period": self.period,
            "running": self.running,
            "statusDetail": self.status_detail,
            "injuryTime": self.injury_time,
        }
        if self.serve is not None:
            wire["serve"] = self.serve
        return wire


@dataclass(slots=True)
class Line:
    """One entry of a market: a line (hdp and/or label) and its decimal prices by side."""

    prices: dict[str, float]  # side ("home", "draw", "away", "over", "under", "yes", "no") -> odds
    hdp: float | None = None
    label: str | None = None
    max: int | None = None  # ML only: the maximum stake


@dataclass(slots=True)
class Market:
    """One bookmaker's quote of one market type for one event."""

    name: str  # e.g. "ML", "Spread", "Totals HT"
    updated_at: float  # simulated seconds
    lines: list[Line]  # ascending hdp
    version: int = 0  # the world's truth version it was priced at (internal to the world)

    def to_wire(self, precision: int) -> dict[str, Any]:
        odds = []
        for line in self.lines:
            entry: dict[str, Any] = {}
            if line.label is not None:
                entry["label"] = line.label
            if line.hdp is not None:
                entry["hdp"] = line.hdp
            for side, price in line.prices.items():
                entry[side] = f"{price:.{precision}f}"
            if line.max is not None:
                entry["max"] = line.max
            odds.append(entry)
        return {"name": self.name, "updatedAt": iso(self.updated_at), "odds": odds}


@dataclass(slots=True)
class Event:
    id: int
    sport: Sport
    league: League
    home: Participant
    away: Participant
    start: float  # simulated seconds
    status: str = PENDING
    _scores: Scores = field(default_factory=Scores)
    clock: Clock | None = None
    bookmakers: list[str] = field(default_factory=list)  # names of the books that quote it
    # bookmaker name -> market name -> Market; the world mutates it in place
    quotes: dict[str, dict[str, Market]] = field(default_factory=dict)
    # A settled result not played out yet: played the first time `scores` is read (most of
    # the historical events are never read).
    final: Callable[[], Scores] | None = None
    # When a match played live ended (simulated seconds); None for results laid out settled.
    settled_at: float | None = None

    @property
    def scores(self) -> Scores:
        if self.final is not None:
            self._scores, self.final = self.final(), None
        return self._scores

    @scores.setter
    def scores(self, value: Scores) -> None:
        self._scores, self.final = value, None

    def header_wire(self) -> dict[str, Any]:
        """The fields an Event and an odds record share."""
        return {
            "id": self.id,
            "home": self.home.name,
            "away": self.away.name,
            "homeId": self.home.id,
            "awayId": self.away.id,
            "date": iso(self.start),
            "status": self.status,
            "sport": self.sport.to_wire(),
            "league": self.league.to_wire(),
            "scores": self.scores.to_wire(),
        }

    def to_wire(self) -> dict[str, Any]:
        """The Event object of GET /events/{id}; `clock` only when live with clock data."""
        wire = self.header_wire()
        wire["bookmakerCount"] = len(self.bookmakers)
        if self.status == LIVE and self.clock is not None:
            wire["clock"] = self.clock.to_wire()
        return wire
