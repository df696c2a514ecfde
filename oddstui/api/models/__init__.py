"""Typed records of the v3 wire and the functions that parse them from decoded JSON.

Records are frozen slotted dataclasses: the feed parses tens of thousands of markets a second,
so there is no validation framework in the way. Every `parse_*` function accepts what the public
service really sends (ids as strings or numbers, prices as strings, `"N/A"` urls, the old
`fulltime` key, timestamps with any number of fraction digits, unknown fields) and raises only
`MalformedRecord` with a short reason for anything else.

The records live by subject in this package (`events`, `odds`, `catalog`, `derived`, `headers`;
the field readers in `fields`); every public name is importable from here.
"""

from oddstui.api.models.catalog import (
    Bookmaker,
    League,
    Participant,
    SelectedBookmakers,
    Sport,
    parse_bookmaker,
    parse_league,
    parse_participant,
    parse_selected_bookmakers,
    parse_sport,
)
from oddstui.api.models.derived import (
    ArbitrageBet,
    ArbitrageLeg,
    DroppingOdds,
    EventSummary,
    OptimalStake,
    ValueBet,
    parse_arbitrage_bet,
    parse_dropping_odds,
    parse_event_summary,
    parse_value_bet,
)
from oddstui.api.models.events import (
    EMPTY_SCORES,
    Clock,
    Event,
    Named,
    Scores,
    parse_clock,
    parse_event,
    parse_named,
    parse_scores,
    slugify,
)
from oddstui.api.models.fields import (
    parse_list,
    parse_time,
)
from oddstui.api.models.headers import (
    UNKNOWN_BUDGET,
    Budget,
    parse_budget,
)
from oddstui.api.models.odds import (
    Line,
    MarketQuote,
    Movements,
    OddsRecord,
    Tick,
    parse_line,
    parse_market,
    parse_markets,
    parse_movements,
    parse_odds_record,
    parse_tick,
)

__all__ = [
    "ArbitrageBet",
    "ArbitrageLeg",
    "Bookmaker",
    "Budget",
    "Clock",
    "DroppingOdds",
    "EMPTY_SCORES",
    "Event",
    "EventSummary",
    "League",
    "Line",
    "MarketQuote",
    "Movements",
    "Named",
    "OddsRecord",
    "OptimalStake",
    "Participant",
    "Scores",
    "SelectedBookmakers",
    "Sport",
    "Tick",
    "UNKNOWN_BUDGET",
    "ValueBet",
    "parse_arbitrage_bet",
    "parse_bookmaker",
    "parse_budget",
    "parse_clock",
    "parse_dropping_odds",
    "parse_event",
    "parse_event_summary",
    "parse_league",
    "parse_line",
    "parse_list",
    "parse_market",
    "parse_markets",
    "parse_movements",
    "parse_named",
    "parse_odds_record",
    "parse_participant",
    "parse_scores",
    "parse_selected_bookmakers",
    "parse_sport",
    "parse_tick",
    "parse_time",
    "parse_value_bet",
    "slugify",
]
