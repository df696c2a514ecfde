"""Typed records of the v3 wire and the functions that parse them from decoded JSON.

Records are frozen slotted dataclasses: the feed parses tens of thousands of markets a second,
so there is no validation framework in the way. Every `parse_*` function accepts what the public
service really sends (ids as strings or numbers, prices as strings, `"N/A"` urls, the old
`fulltime` key, timestamps with any number of fraction digits, unknown fields) and raises only
`MalformedRecord` with a short reason for anything else.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

import msgspec

from oddstui.api.errors import MalformedRecord

# --------------------------------------------------------------------------- scalar helpers

_MISSING_PRICES = frozenset({"", "N/A", "n/a", "-"})
_NO_URL = frozenset({"", "N/A", "n/a", "-"})
# Keys of a market entry that are not sides; anything else holding a number is a price.
_ENTRY_META = frozenset({"hdp", "label", "max", "id", "updatedAt", "timestamp", "limit"})
_KNOWN_SIDES = frozenset(
    {"home", "draw", "away", "over", "under", "yes", "no", "layHome", "layDraw", "layAway"}
)
T = TypeVar("T")
_TIME_CACHE: dict[str, datetime] = {}
_TIME_CACHE_MAX = 4096
_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def _fail(reason: str) -> MalformedRecord:
    return MalformedRecord(reason)


def _mapping(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _fail(f"{what} is not an object")
    return value


def _int(value: Any, what: str) -> int:
    """An integer from an int, an integral float or a decimal string; bools are refused."""
    if type(value) is int:
        return value
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            raise _fail(f"{what} is not an integer") from None
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise _fail(f"{what} is not an integer")


def _opt_int(value: Any, what: str) -> int | None:
    return None if value is None else _int(value, what)


def _float(value: Any, what: str) -> float:
    if isinstance(value, bool):
        raise _fail(f"{what} is not a number")
    if not isinstance(value, int | float | str):
        raise _fail(f"{what} is not a number")
    try:
        number = float(value)
    except (ValueError, OverflowError):
        raise _fail(f"{what} is not a number") from None
    if not math.isfinite(number):
        raise _fail(f"{what} is not finite")
    return number


def _opt_float(value: Any, what: str) -> float | None:
    return None if value is None else _float(value, what)


def _str(value: Any, what: str) -> str:
    if isinstance(value, str):
        return value
    raise _fail(f"{what} is not a string")


def _opt_str(value: Any, what: str) -> str | None:
    return None if value is None else _str(value, what)


def _id_text(value: Any, what: str) -> str:
    """An identifier kept as text (arbitrage ids, bookmaker fixture ids): a string or number."""
    if isinstance(value, str):
        return value
    if type(value) is int:
        return str(value)
    raise _fail(f"{what} is not an id")


def parse_time(value: Any, what: str = "timestamp") -> datetime:
    """An aware UTC datetime from ISO-8601 text (any fraction digits, `Z` or an offset)."""
    if not isinstance(value, str):
        raise _fail(f"{what} is not a time string")
    cached = _TIME_CACHE.get(value)
    if cached is not None:
        return cached
    try:
        moment = datetime.fromisoformat(value)
        moment = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    except (ValueError, OverflowError):
        raise _fail(f"{what} is not an ISO-8601 time") from None
    if len(_TIME_CACHE) >= _TIME_CACHE_MAX:
        _TIME_CACHE.clear()
    _TIME_CACHE[value] = moment
    return moment


def _opt_time(value: Any, what: str) -> datetime | None:
    return None if value is None or value == "" else parse_time(value, what)


def _price(value: Any, what: str) -> float | None:
    """A decimal price from a string or number; None when the side is not quoted."""
    if value is None or (isinstance(value, str) and value.strip() in _MISSING_PRICES):
        return None
    number = _float(value, what)
    # Books show 1.00 (or 0) for a suspended side; it is not a price anyone can take.
    return number if number > 1.0 else None


def _url(value: Any) -> str | None:
    if isinstance(value, str) and value.strip() not in _NO_URL:
        return value
    return None


# --------------------------------------------------------------------------- event records


@dataclass(frozen=True, slots=True)
class Named:
    """A sport or league reference: `{name, slug}`."""

    name: str
    slug: str


@dataclass(frozen=True, slots=True)
class Scores:
    """Top-level totals (overtime/penalty rules of the seed) and per-period `(home, away)`."""

    home: int
    away: int
    periods: dict[str, tuple[int, int]]


EMPTY_SCORES = Scores(0, 0, {})


@dataclass(frozen=True, slots=True)
class Clock:
    """A live match clock as last received; UIs derive the running time from it."""

    minute: int
    played_seconds: int
    period: int
    running: bool
    status_detail: str
    injury_time: int
    serve: str | None


@dataclass(frozen=True, slots=True)
class Event:
    id: int
    home: str
    away: str
    home_id: int | None
    away_id: int | None
    date: datetime
    status: str
    sport: Named
    league: Named
    scores: Scores
    clock: Clock | None
    bookmaker_count: int | None


def slugify(name: str) -> str:
    """`"England - Premier League"` -> `"england-premier-league"`, the service's slug style."""
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return "-".join(_NON_ALNUM.split(folded)).strip("-")


def parse_named(value: Any, what: str = "reference") -> Named:
    """`{name, slug}`; a bare display name (derived feeds send one) gets a slug made from it."""
    if isinstance(value, str):
        return Named(value, slugify(value))
    raw = _mapping(value, what)
    name = raw.get("name")
    slug = raw.get("slug")
    if name is None and slug is None:
        raise _fail(f"{what} has no name or slug")
    name_text = _str(name if name is not None else slug, f"{what}.name")
    slug_text = _str(slug if slug is not None else name, f"{what}.slug")
    return Named(name_text, slug_text)


def parse_scores(value: Any) -> Scores:
    """Scores; `null` means none yet. The old `fulltime` key is read as `ft`."""
    if value is None:
        return EMPTY_SCORES
    raw = _mapping(value, "scores")
    home = raw.get("home")
    away = raw.get("away")
    periods: dict[str, tuple[int, int]] = {}
    raw_periods = raw.get("periods")
    if raw_periods is not None:
        for key, pair in _mapping(raw_periods, "scores.periods").items():
            if not isinstance(key, str) or not isinstance(pair, Mapping):
                raise _fail("scores.periods entry is not an object")
            if key == "fulltime":
                if "ft" in raw_periods:
                    continue
                key = "ft"
            try:
                periods[key] = (
                    _int(pair.get("home") or 0, f"scores.periods.{key}.home"),
                    _int(pair.get("away") or 0, f"scores.periods.{key}.away"),
                )
            except MalformedRecord:
                continue  # e.g. a tennis "AD" point: drop the one period, keep the match
    return Scores(
        0 if home is None else _int(home, "scores.home"),
        0 if away is None else _int(away, "scores.away"),
        periods,
    )


def parse_clock(value: Any) -> Clock | None:
    if value is None:
        return None
    raw = _mapping(value, "clock")
    running = raw.get("running", False)
    if not isinstance(running, bool):
        raise _fail("clock.running is not a boolean")
    serve = raw.get("serve")
    return Clock(
        minute=_int(raw.get("minute") or 0, "clock.minute"),
        played_seconds=_int(raw.get("playedSeconds") or 0, "clock.playedSeconds"),
        period=_int(raw.get("period") or 0, "clock.period"),
        running=running,
        status_detail=_opt_str(raw.get("statusDetail"), "clock.statusDetail") or "",
        injury_time=_int(raw.get("injuryTime") or 0, "clock.injuryTime"),
        serve=None if serve is None else str(serve),
    )


def parse_event(value: Any) -> Event:
    """An Event (GET /events, /events/{id}, /events/live, /events/search) or the event part of
    an odds record."""
    raw = _mapping(value, "event")
    try:
        event_id = raw["id"]
        home = raw["home"]
        away = raw["away"]
        date = raw["date"]
    except KeyError as missing:
        raise _fail(f"event has no {missing.args[0]}") from None
    return Event(
        id=_int(event_id, "event.id"),
        home=_str(home, "event.home"),
        away=_str(away, "event.away"),
        home_id=_opt_int(raw.get("homeId"), "event.homeId"),
        away_id=_opt_int(raw.get("awayId"), "event.awayId"),
        date=parse_time(date, "event.date"),
        status=_str(raw.get("status", ""), "event.status"),
        sport=parse_named(raw.get("sport"), "event.sport"),
        league=parse_named(raw.get("league"), "event.league"),
        scores=parse_scores(raw.get("scores")),
        clock=parse_clock(raw.get("clock")),
        bookmaker_count=_opt_int(raw.get("bookmakerCount"), "event.bookmakerCount"),
    )


# --------------------------------------------------------------------------- odds records


class Line(msgspec.Struct, frozen=True, gc=False):
    """One line of a market: a handicap/total `hdp` and/or a `label` (player), and its prices.

    Lines and quotes are msgspec structs rather than dataclasses: the feed makes tens of
    thousands a second, a struct is built ten times faster, and `gc=False` keeps the book's
    millions of them out of the cyclic garbage collector's scans (they hold no references that
    could form a cycle).
    """

    hdp: float | None
    label: str | None
    prices: dict[str, float]
    max: float | None

    @property
    def key(self) -> tuple[float | None, str | None]:
        return (self.hdp, self.label)


class MarketQuote(msgspec.Struct, frozen=True, gc=False):
    """One bookmaker's quote of one market: its lines in the order received."""

    name: str
    updated_at: datetime | None
    lines: tuple[Line, ...]


@dataclass(frozen=True, slots=True)
class OddsRecord:
    event: Event
    bookmakers: dict[str, tuple[MarketQuote, ...]]
    urls: dict[str, str | None]
    bookmaker_ids: dict[str, str]


def _bad_price(market: str, side: str) -> MalformedRecord:
    return _fail(f"{market}.{side} is not a price")


def parse_line(value: Any, market: str = "market") -> Line:
    if not isinstance(value, dict):
        raise _fail(f"{market} entry is not an object")
    prices: dict[str, float] = {}
    # The hot path of feed ingest: no per-side helper calls or message strings unless it fails.
    for side, raw in value.items():
        if side in _ENTRY_META:
            continue
        kind = type(raw)
        if kind is str:
            try:
                price = float(raw)
            except ValueError:
                if raw.strip() in _MISSING_PRICES or side not in _KNOWN_SIDES:
                    continue
                raise _bad_price(market, side) from None
        elif kind is float or kind is int:
            try:
                price = float(raw)
            except OverflowError:
                price = math.inf
        elif raw is None or side not in _KNOWN_SIDES:
            continue
        else:
            raise _bad_price(market, side)
        if 1.0 < price < math.inf:
            prices[side] = price
        elif not math.isfinite(price):
            if side in _KNOWN_SIDES:
                raise _bad_price(market, side)
        # A price of 1.00 or less is a suspended side (books show 1.00 or 0): left out.
    hdp = value.get("hdp")
    label = value.get("label")
    maximum = value.get("max")
    return Line(
        hdp=None if hdp is None else _float(hdp, f"{market}.hdp"),
        label=None if label is None else str(label),
        prices=prices,
        max=None if maximum is None else _float(maximum, f"{market}.max"),
    )


def parse_market(value: Any) -> MarketQuote:
    """`{name, updatedAt, odds: [entry, ...]}` as in GET /odds and the feed's `markets`."""
    if not isinstance(value, dict):
        raise _fail("market is not an object")
    name = value.get("name")
    if not isinstance(name, str) or not name:
        raise _fail("market has no name")
    entries = value.get("odds")
    if entries is None:
        entries = ()
    elif not isinstance(entries, list):
        raise _fail(f"{name}.odds is not a list")
    return MarketQuote(
        name=name,
        updated_at=_opt_time(value.get("updatedAt"), f"{name}.updatedAt"),
        lines=tuple([parse_line(entry, name) for entry in entries]),
    )


def parse_markets(value: Any) -> tuple[MarketQuote, ...]:
    """A bookmaker's list of markets; `null` is none."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise _fail("markets is not a list")
    return tuple([parse_market(market) for market in value])


def parse_odds_record(value: Any) -> OddsRecord:
    raw = _mapping(value, "odds record")
    bookmakers: dict[str, tuple[MarketQuote, ...]] = {}
    raw_books = raw.get("bookmakers")
    if raw_books is not None:
        for book, markets in _mapping(raw_books, "bookmakers").items():
            bookmakers[str(book)] = parse_markets(markets)
    urls: dict[str, str | None] = {}
    raw_urls = raw.get("urls")
    if raw_urls is not None:
        for book, link in _mapping(raw_urls, "urls").items():
            urls[str(book)] = _url(link)
    ids: dict[str, str] = {}
    raw_ids = raw.get("bookmakerIds")
    if raw_ids is not None:
        for book, fixture in _mapping(raw_ids, "bookmakerIds").items():
            if fixture is not None:
                ids[str(book)] = _id_text(fixture, "bookmakerIds value")
    return OddsRecord(event=parse_event(raw), bookmakers=bookmakers, urls=urls, bookmaker_ids=ids)


# --------------------------------------------------------------------------- catalog records


@dataclass(frozen=True, slots=True)
class Sport:
    name: str
    slug: str


@dataclass(frozen=True, slots=True)
class Bookmaker:
    name: str
    active: bool


@dataclass(frozen=True, slots=True)
class League:
    name: str
    slug: str
    events_count: int | None


@dataclass(frozen=True, slots=True)
class Participant:
    id: int
    name: str
    sport: str


@dataclass(frozen=True, slots=True)
class SelectedBookmakers:
    bookmakers: tuple[str, ...]
    count: int


def parse_sport(value: Any) -> Sport:
    named = parse_named(value, "sport")
    return Sport(named.name, named.slug)


def parse_bookmaker(value: Any) -> Bookmaker:
    raw = _mapping(value, "bookmaker")
    active = raw.get("active", True)
    if not isinstance(active, bool):
        raise _fail("bookmaker.active is not a boolean")
    return Bookmaker(_str(raw.get("name"), "bookmaker.name"), active)


def parse_league(value: Any) -> League:
    raw = _mapping(value, "league")
    named = parse_named(raw, "league")
    return League(named.name, named.slug, _opt_int(raw.get("eventsCount"), "league.eventsCount"))


def parse_participant(value: Any) -> Participant:
    raw = _mapping(value, "participant")
    sport = raw.get("sport")
    if isinstance(sport, Mapping):
        sport = parse_named(sport, "participant.sport").slug
    return Participant(
        id=_int(raw.get("id"), "participant.id"),
        name=_str(raw.get("name"), "participant.name"),
        sport=_opt_str(sport, "participant.sport") or "",
    )


def parse_selected_bookmakers(value: Any) -> SelectedBookmakers:
    raw = _mapping(value, "selection")
    names = raw.get("bookmakers")
    if names is None:
        names = []
    if not isinstance(names, list):
        raise _fail("selection.bookmakers is not a list")
    books = tuple(_str(name, "selection.bookmakers[]") for name in names)
    count = raw.get("count")
    return SelectedBookmakers(
        books, len(books) if count is None else _int(count, "selection.count")
    )


# --------------------------------------------------------------------------- derived feeds


@dataclass(frozen=True, slots=True)
class EventSummary:
    """The `event` object that derived feeds add with includeEventDetails=true."""

    home: str
    away: str
    date: datetime | None
    sport: Named | None
    league: Named | None


def parse_event_summary(value: Any) -> EventSummary | None:
    if value is None:
        return None
    raw = _mapping(value, "event")
    sport = raw.get("sport")
    league = raw.get("league")
    return EventSummary(
        home=_str(raw.get("home", ""), "event.home"),
        away=_str(raw.get("away", ""), "event.away"),
        date=_opt_time(raw.get("date"), "event.date"),
        sport=None if sport is None else parse_named(sport, "event.sport"),
        league=None if league is None else parse_named(league, "event.league"),
    )


@dataclass(frozen=True, slots=True)
class ValueBet:
    id: str
    event_id: int
    event: EventSummary | None
    bookmaker: str
    bet_side: str
    expected_value: float  # percent
    expected_value_updated_at: datetime | None
    bookmaker_prices: dict[str, float]  # the bookmaker's home/draw/away
    bookmaker_hdp: float | None
    direct_links: dict[str, str | None]  # side -> the bookmaker's bet-slip link
    href: str | None
    market_name: str
    market_hdp: float | None
    market_prices: dict[str, float]  # the reference (fair) home/draw/away
    market_max: float | None
    bookmaker_updated_at: datetime | None = None
    """When the bookmaker's quote last changed (`bookmakerOdds.updatedAt`), apart from the edge."""


_VALUE_SIDES = ("home", "draw", "away", "over", "under", "yes", "no")


def _side_prices(raw: Mapping[str, Any], what: str) -> dict[str, float]:
    prices: dict[str, float] = {}
    for side in _VALUE_SIDES:
        price = _price(raw.get(side), f"{what}.{side}")
        if price is not None:
            prices[side] = price
    return prices


def parse_value_bet(value: Any) -> ValueBet:
    raw = _mapping(value, "value bet")
    odds = _mapping(raw.get("bookmakerOdds") or {}, "bookmakerOdds")
    market = _mapping(raw.get("market") or {}, "market")
    links: dict[str, str | None] = {}
    for side in _VALUE_SIDES:
        link = odds.get(f"{side}DirectLink")
        if link is not None:
            links[side] = _url(link)
    hdp = odds.get("hdp")
    return ValueBet(
        id=_id_text(raw.get("id"), "valueBet.id"),
        event_id=_int(raw.get("eventId"), "valueBet.eventId"),
        event=parse_event_summary(raw.get("event")),
        bookmaker=_str(raw.get("bookmaker"), "valueBet.bookmaker"),
        bet_side=_str(raw.get("betSide"), "valueBet.betSide"),
        expected_value=_float(raw.get("expectedValue"), "valueBet.expectedValue"),
        expected_value_updated_at=_opt_time(
            raw.get("expectedValueUpdatedAt"), "valueBet.expectedValueUpdatedAt"
        ),
        bookmaker_prices=_side_prices(odds, "bookmakerOdds"),
        bookmaker_hdp=None if hdp in (None, "") else _float(hdp, "bookmakerOdds.hdp"),
        direct_links=links,
        href=_url(odds.get("href")),
        market_name=_str(market.get("name", ""), "market.name"),
        market_hdp=_opt_float(market.get("hdp"), "market.hdp"),
        market_prices=_side_prices(market, "market"),
        market_max=_opt_float(market.get("max"), "market.max"),
        bookmaker_updated_at=_opt_time(odds.get("updatedAt"), "bookmakerOdds.updatedAt"),
    )


@dataclass(frozen=True, slots=True)
class ArbitrageLeg:
    bookmaker: str
    side: str
    label: str
    odds: float
    bookmaker_fixture_id: str | None
    direct_link: str | None
    href: str | None
    updated_at: datetime | None = None
    """When this leg's price was quoted: a stale leg is the usual reason for a large profit."""


@dataclass(frozen=True, slots=True)
class OptimalStake:
    bookmaker: str
    side: str
    stake: float
    potential_return: float


@dataclass(frozen=True, slots=True)
class ArbitrageBet:
    id: str
    event_id: int
    event: EventSummary | None
    implied_probability: float
    profit_margin: float  # percent
    total_stake: float
    updated_at: datetime | None
    market_name: str
    market_hdp: float | None
    legs: tuple[ArbitrageLeg, ...]
    optimal_stakes: tuple[OptimalStake, ...]
    market_label: str | None = None


def _list(value: Any, what: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise _fail(f"{what} is not a list")
    return value


def parse_arbitrage_bet(value: Any) -> ArbitrageBet:
    raw = _mapping(value, "arbitrage bet")
    market = _mapping(raw.get("market") or {}, "market")
    legs = []
    for leg_value in _list(raw.get("legs"), "legs"):
        leg = _mapping(leg_value, "leg")
        odds = _price(leg.get("odds"), "leg.odds")
        if odds is None:
            raise _fail("leg.odds is not a price")
        fixture = leg.get("bookmakerFixtureId")
        legs.append(
            ArbitrageLeg(
                bookmaker=_str(leg.get("bookmaker"), "leg.bookmaker"),
                side=_str(leg.get("side", ""), "leg.side"),
                label=_opt_str(leg.get("label"), "leg.label") or "",
                odds=odds,
                bookmaker_fixture_id=None if fixture is None else _id_text(fixture, "leg.id"),
                direct_link=_url(leg.get("directLink")),
                href=_url(leg.get("href")),
                updated_at=_opt_time(leg.get("updatedAt"), "leg.updatedAt"),
            )
        )
    stakes = []
    for stake_value in _list(raw.get("optimalStakes"), "optimalStakes"):
        stake = _mapping(stake_value, "optimalStake")
        stakes.append(
            OptimalStake(
                bookmaker=_str(stake.get("bookmaker"), "optimalStake.bookmaker"),
                side=_str(stake.get("side", ""), "optimalStake.side"),
                stake=_float(stake.get("stake"), "optimalStake.stake"),
                potential_return=_float(
                    stake.get("potentialReturn"), "optimalStake.potentialReturn"
                ),
            )
        )
    return ArbitrageBet(
        id=_id_text(raw.get("id"), "arbitrage.id"),
        event_id=_int(raw.get("eventId"), "arbitrage.eventId"),
        event=parse_event_summary(raw.get("event")),
        implied_probability=_float(raw.get("impliedProbability"), "impliedProbability"),
        profit_margin=_float(raw.get("profitMargin"), "profitMargin"),
        total_stake=_float(raw.get("totalStake"), "totalStake"),
        updated_at=_opt_time(raw.get("updatedAt"), "arbitrage.updatedAt"),
        market_name=_str(market.get("name", ""), "market.name"),
        market_hdp=_opt_float(market.get("hdp"), "market.hdp"),
        legs=tuple(legs),
        optimal_stakes=tuple(stakes),
        market_label=_opt_str(market.get("label"), "market.label") or None,
    )


@dataclass(frozen=True, slots=True)
class DroppingOdds:
    event_id: int
    event: EventSummary | None
    market_name: str
    market_hdp: float | None
    market_label: str | None
    bet_side: str
    opening: float
    current: float
    drop_since_opening: float  # percent
    drop_12h: float | None
    drop_24h: float | None
    drop_48h: float | None
    last_moved_at_ms: int | None
    updated_at_ms: int


def parse_dropping_odds(value: Any) -> DroppingOdds:
    raw = _mapping(value, "dropping odds")
    market = _mapping(raw.get("market") or {}, "market")
    odds = _mapping(raw.get("odds"), "odds")
    drop = _mapping(odds.get("drop") or {}, "odds.drop")
    label = market.get("label")
    return DroppingOdds(
        event_id=_int(raw.get("eventId"), "droppingOdds.eventId"),
        event=parse_event_summary(raw.get("event")),
        market_name=_str(market.get("name", ""), "market.name"),
        market_hdp=_opt_float(market.get("hdp"), "market.hdp"),
        market_label=None if label in (None, "") else str(label),
        bet_side=_str(raw.get("betSide"), "betSide"),
        opening=_float(odds.get("opening"), "odds.opening"),
        current=_float(odds.get("current"), "odds.current"),
        drop_since_opening=_float(drop.get("sinceOpening", 0), "drop.sinceOpening"),
        drop_12h=_opt_float(drop.get("12h"), "drop.12h"),
        drop_24h=_opt_float(drop.get("24h"), "drop.24h"),
        drop_48h=_opt_float(drop.get("48h"), "drop.48h"),
        last_moved_at_ms=_opt_int(raw.get("lastMovedAt"), "lastMovedAt"),
        updated_at_ms=_int(raw.get("updatedAt"), "updatedAt"),
    )


@dataclass(frozen=True, slots=True)
class Tick:
    """One price state in a movement history; `timestamp_ms` is Unix milliseconds."""

    timestamp_ms: int
    hdp: float | None
    label: str | None
    prices: dict[str, float]


@dataclass(frozen=True, slots=True)
class Movements:
    event_id: int
    bookmaker: str
    opening: Tick | None
    ticks: tuple[Tick, ...]


def parse_tick(value: Any) -> Tick:
    line = parse_line(value, "tick")
    raw = _mapping(value, "tick")
    return Tick(
        timestamp_ms=_int(raw.get("timestamp"), "tick.timestamp"),
        hdp=line.hdp,
        label=line.label,
        prices=line.prices,
    )


def parse_movements(value: Any) -> Movements:
    raw = _mapping(value, "movements")
    event_id = raw.get("eventid", raw.get("eventId"))
    opening = raw.get("opening")
    return Movements(
        event_id=_int(event_id, "movements.eventid"),
        bookmaker=_str(raw.get("bookmaker", ""), "movements.bookmaker"),
        opening=None if opening is None else parse_tick(opening),
        ticks=tuple(parse_tick(tick) for tick in _list(raw.get("movements"), "movements")),
    )


# --------------------------------------------------------------------------- rate-limit budget


@dataclass(frozen=True, slots=True)
class Budget:
    """The hourly request budget as the service last reported it (`x-ratelimit-*`)."""

    limit: int | None
    remaining: int | None
    reset: datetime | None


UNKNOWN_BUDGET = Budget(None, None, None)


def parse_budget(headers: Mapping[str, str]) -> Budget | None:
    """The budget from response headers (case-insensitive mapping); None when none are sent."""
    limit = headers.get("x-ratelimit-limit")
    remaining = headers.get("x-ratelimit-remaining")
    reset = headers.get("x-ratelimit-reset")
    if limit is None and remaining is None and reset is None:
        return None

    def number(text: str | None) -> int | None:
        try:
            return None if text is None else int(float(text))
        except (ValueError, OverflowError):
            return None

    moment: datetime | None = None
    if reset is not None:
        try:
            moment = parse_time(reset.strip())
        except MalformedRecord:
            seconds = number(reset)
            # Some services send epoch seconds instead of ISO-8601; accept them too.
            if seconds is not None and seconds > 1_000_000_000:
                try:
                    moment = datetime.fromtimestamp(seconds, UTC)
                except (ValueError, OverflowError, OSError):
                    moment = None
    return Budget(number(limit), number(remaining), moment)


def parse_list(value: Any, parse: Callable[[Any], T], what: str) -> list[T]:
    """Parse a bare JSON array with `parse` per item; a non-list is malformed."""
    if not isinstance(value, list):
        raise _fail(f"{what} is not a list")
    return [parse(item) for item in value]
