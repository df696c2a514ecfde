"""Wire models: what the public service really sends, and hostile or odd inputs."""

from __future__ import annotations

import copy
from datetime import UTC, datetime

import pytest

from oddstui.api.errors import MalformedRecord
from oddstui.api.models import (
    EMPTY_SCORES,
    Named,
    parse_arbitrage_bet,
    parse_bookmaker,
    parse_budget,
    parse_clock,
    parse_dropping_odds,
    parse_event,
    parse_league,
    parse_market,
    parse_movements,
    parse_odds_record,
    parse_participant,
    parse_scores,
    parse_selected_bookmakers,
    parse_time,
    parse_value_bet,
)

# The captured shape from WIRE.md, as the public service sends it.
RECORD = {
    "id": 72221272,
    "home": "AFC Bournemouth",
    "away": "Liverpool FC",
    "homeId": 60,
    "awayId": 44,
    "date": "2026-09-20T13:00:00Z",
    "status": "pending",
    "sport": {"name": "Football", "slug": "football"},
    "league": {"name": "England - Premier League", "slug": "england-premier-league"},
    "scores": {"home": 0, "away": 0, "periods": {}},
    "urls": {"Bet365": "https://example.test/bet", "Unibet": "N/A"},
    "bookmakerIds": {"Bet365": "200549676", "Bet365_4": "200549676-bot365"},
    "bookmakers": {
        "Bet365": [
            {
                "name": "ML",
                "updatedAt": "2026-09-18T18:53:59.208Z",
                "odds": [{"home": "3.100", "draw": "3.800", "away": "2.150", "max": 500}],
            },
            {
                "name": "Spread",
                "updatedAt": "2026-09-18T17:25:43.122Z",
                "odds": [
                    {"hdp": -1.5, "home": "5.900", "away": "1.130"},
                    {"hdp": 0.25, "home": "1.975", "away": "1.875"},
                ],
            },
            {
                "name": "Totals",
                "updatedAt": "2026-09-18T17:25:43.122Z",
                "odds": [{"hdp": 2.5, "over": "1.85", "under": "2.10"}],
            },
        ]
    },
}


def record(**changes: object) -> dict:
    raw = copy.deepcopy(RECORD)
    raw.update(changes)
    return raw


def test_captured_odds_record_parses_with_every_field():
    parsed = parse_odds_record(record())
    assert parsed.event.id == 72221272
    assert (parsed.event.home, parsed.event.away) == ("AFC Bournemouth", "Liverpool FC")
    assert (parsed.event.home_id, parsed.event.away_id) == (60, 44)
    assert parsed.event.date == datetime(2026, 9, 20, 13, 0, tzinfo=UTC)
    assert parsed.event.league.slug == "england-premier-league"
    ml, spread, totals = parsed.bookmakers["Bet365"]
    assert ml.name == "ML"
    assert ml.updated_at == datetime(2026, 9, 18, 18, 53, 59, 208000, tzinfo=UTC)
    assert ml.lines[0].prices == {"home": 3.1, "draw": 3.8, "away": 2.15}
    assert ml.lines[0].max == 500.0
    assert ml.lines[0].key == (None, None)
    assert [line.key for line in spread.lines] == [(-1.5, None), (0.25, None)]
    assert totals.lines[0].prices == {"over": 1.85, "under": 2.10}


def test_na_url_becomes_none_and_real_urls_stay():
    parsed = parse_odds_record(record())
    assert parsed.urls == {"Bet365": "https://example.test/bet", "Unibet": None}


def test_extra_bookmaker_id_keys_are_kept_as_text():
    parsed = parse_odds_record(record(bookmakerIds={"Bet365": 200549676, "Bet365_4": "x-1"}))
    assert parsed.bookmaker_ids == {"Bet365": "200549676", "Bet365_4": "x-1"}


@pytest.mark.parametrize("event_id", ["72221272", 72221272, 72221272.0])
def test_ids_as_strings_or_numbers(event_id):
    assert parse_odds_record(record(id=event_id, homeId="60")).event.id == 72221272
    assert parse_odds_record(record(id=event_id, homeId="60")).event.home_id == 60


@pytest.mark.parametrize("bad_id", ["abc", "", None, True, 1.5, [1], {"id": 1}])
def test_bad_ids_are_malformed(bad_id):
    with pytest.raises(MalformedRecord, match="event.id"):
        parse_odds_record(record(id=bad_id))


def test_missing_required_field_names_it():
    raw = record()
    del raw["home"]
    with pytest.raises(MalformedRecord, match="home"):
        parse_odds_record(raw)


def test_unknown_fields_are_ignored():
    raw = record(newField={"x": 1}, anotherOne=[1, 2])
    raw["bookmakers"]["Bet365"][0]["extra"] = "y"
    raw["bookmakers"]["Bet365"][0]["odds"][0]["comment"] = "not a price"
    parsed = parse_odds_record(raw)
    assert parsed.bookmakers["Bet365"][0].lines[0].prices == {
        "home": 3.1,
        "draw": 3.8,
        "away": 2.15,
    }


@pytest.mark.parametrize(
    "text, expected",
    [
        ("2026-09-18T18:53:59Z", datetime(2026, 9, 18, 18, 53, 59, tzinfo=UTC)),
        ("2026-09-18T18:53:59.2Z", datetime(2026, 9, 18, 18, 53, 59, 200000, tzinfo=UTC)),
        ("2026-09-18T18:53:59.208Z", datetime(2026, 9, 18, 18, 53, 59, 208000, tzinfo=UTC)),
        ("2026-09-18T18:53:59.2081234Z", datetime(2026, 9, 18, 18, 53, 59, 208123, tzinfo=UTC)),
        ("2026-09-18T20:53:59+02:00", datetime(2026, 9, 18, 18, 53, 59, tzinfo=UTC)),
        ("2026-09-18T18:53:59", datetime(2026, 9, 18, 18, 53, 59, tzinfo=UTC)),
    ],
)
def test_timestamps_with_varying_fraction_digits_and_offsets(text, expected):
    moment = parse_time(text)
    assert moment == expected
    assert moment.utcoffset() is not None and moment.utcoffset().total_seconds() == 0


@pytest.mark.parametrize("bad", ["yesterday", "2026-13-40T00:00:00Z", "", 1700000000, None])
def test_bad_timestamps_are_malformed(bad):
    with pytest.raises(MalformedRecord):
        parse_time(bad)


def test_prices_as_numbers_strings_and_unquoted_sides():
    market = parse_market(
        {
            "name": "ML",
            "odds": [{"home": 2.5, "draw": "N/A", "away": "3", "layHome": "2.52", "layAway": None}],
        }
    )
    assert market.updated_at is None
    assert market.lines[0].prices == {"home": 2.5, "away": 3.0, "layHome": 2.52}


@pytest.mark.parametrize("price", ["abc", "nan", "inf", "-inf", [], {}, True])
def test_garbage_price_on_a_known_side_is_malformed(price):
    with pytest.raises(MalformedRecord, match="home"):
        parse_market({"name": "ML", "odds": [{"home": price, "away": "2.0"}]})


@pytest.mark.parametrize("price", ["1.00", "1", 0, "-2.5"])
def test_suspended_prices_of_one_or_less_are_left_out(price):
    market = parse_market({"name": "ML", "odds": [{"home": price, "away": "2.0"}]})
    assert market.lines[0].prices == {"away": 2.0}


def test_player_prop_line_is_keyed_by_hdp_and_label():
    market = parse_market(
        {
            "name": "Player Props",
            "odds": [
                {"label": "Haaland", "hdp": 0.5, "over": "1.5", "under": "2.6"},
                {"label": "Salah", "hdp": 0.5, "over": "1.9", "under": "1.9"},
            ],
        }
    )
    assert [line.key for line in market.lines] == [(0.5, "Haaland"), (0.5, "Salah")]


def test_yes_no_market():
    market = parse_market({"name": "Both Teams To Score", "odds": [{"yes": "1.7", "no": "2.1"}]})
    assert market.lines[0].prices == {"yes": 1.7, "no": 2.1}


@pytest.mark.parametrize(
    "bad, reason",
    [
        ("ML", "market is not an object"),
        ({"odds": []}, "no name"),
        ({"name": ""}, "no name"),
        ({"name": "ML", "odds": {"home": "2"}}, "not a list"),
        ({"name": "ML", "odds": ["x"]}, "entry is not an object"),
        ({"name": "ML", "odds": [{"hdp": "x", "home": "2"}]}, "hdp"),
        ({"name": "ML", "updatedAt": "soon", "odds": []}, "updatedAt"),
    ],
)
def test_bad_markets_give_a_short_reason(bad, reason):
    with pytest.raises(MalformedRecord, match=reason):
        parse_market(bad)


def test_null_markets_and_bookmakers_are_empty():
    parsed = parse_odds_record(record(bookmakers={"Bet365": None}, urls=None, bookmakerIds=None))
    assert parsed.bookmakers == {"Bet365": ()}
    assert parsed.urls == {} and parsed.bookmaker_ids == {}


def test_fulltime_is_an_alias_of_ft():
    scores = parse_scores({"home": 2, "away": 1, "periods": {"fulltime": {"home": 2, "away": 1}}})
    assert scores.periods == {"ft": (2, 1)}


def test_ft_wins_over_fulltime_when_both_are_sent():
    scores = parse_scores(
        {
            "home": 3,
            "away": 1,
            "periods": {"fulltime": {"home": 9, "away": 9}, "ft": {"home": 3, "away": 1}},
        }
    )
    assert scores.periods == {"ft": (3, 1)}


def test_scores_in_overtime_and_penalties():
    scores = parse_scores(
        {
            "home": "4",
            "away": "3",
            "periods": {
                "p1": {"home": 1, "away": 1},
                "ft": {"home": 3, "away": 3},
                "ot": {"home": 4, "away": 3},
                "ap": {"home": "5", "away": 4},
            },
        }
    )
    assert (scores.home, scores.away) == (4, 3)
    assert scores.periods["ap"] == (5, 4)


def test_null_scores_are_zero_and_a_bad_period_is_dropped_alone():
    assert parse_scores(None) is EMPTY_SCORES
    scores = parse_scores(
        {
            "home": None,
            "away": None,
            "periods": {"currentgame": {"home": "AD", "away": 40}, "p1": {"home": 6, "away": 4}},
        }
    )
    assert (scores.home, scores.away) == (0, 0)
    assert scores.periods == {"p1": (6, 4)}


def test_red_cards_are_read_where_carried_and_a_bad_count_leaves_the_score_standing():
    assert parse_scores({"home": 1, "away": 0}).red_cards is None  # the seed's Scores
    carried = parse_scores({"home": 1, "away": 0, "redCards": {"home": 0, "away": "2"}})
    assert carried.red_cards == (0, 2)
    for bad in ({"home": -1, "away": 0}, {"home": "x", "away": 0}, [0, 1], {"home": True}):
        scores = parse_scores({"home": 1, "away": 0, "redCards": bad})
        assert (scores.home, scores.away, scores.red_cards) == (1, 0, None)


@pytest.mark.parametrize("bad", ["1-0", [1, 0], {"home": "one"}, {"periods": [1]}])
def test_bad_scores_are_malformed(bad):
    with pytest.raises(MalformedRecord):
        parse_scores(bad)


def test_live_event_with_clock_and_serve():
    event = parse_event(
        {
            "id": "9",
            "home": "Škoda [Red]",
            "away": "Bodø/Glimt & Co",
            "date": "2026-11-21T10:00:00.5Z",
            "status": "live",
            "sport": {"name": "Tennis", "slug": "tennis"},
            "league": {"name": "ATP", "slug": "atp"},
            "bookmakerCount": 31,
            "scores": {"home": 1, "away": 0, "periods": {"p1": {"home": 6, "away": 3}}},
            "clock": {
                "minute": 0,
                "playedSeconds": 3600,
                "period": 2,
                "running": True,
                "statusDetail": "2nd set",
                "injuryTime": 0,
                "serve": "home",
            },
        }
    )
    assert event.home == "Škoda [Red]"
    assert event.bookmaker_count == 31
    assert event.clock is not None
    assert event.clock.played_seconds == 3600 and event.clock.serve == "home"
    assert event.clock.running is True


def test_clock_absent_is_none_and_sparse_clock_defaults():
    assert parse_clock(None) is None
    clock = parse_clock({"minute": 12})
    assert clock is not None
    assert (clock.minute, clock.played_seconds, clock.running, clock.status_detail) == (
        12,
        0,
        False,
        "",
    )


def test_clock_running_must_be_boolean():
    with pytest.raises(MalformedRecord, match="running"):
        parse_clock({"running": "yes"})


def test_catalog_records():
    assert parse_bookmaker({"name": "Bet365", "active": True}).active is True
    league = parse_league({"name": "Premier", "slug": "premier", "eventsCount": 10})
    assert league.events_count == 10
    participant = parse_participant({"id": "44", "name": "Liverpool FC", "sport": "football"})
    assert (participant.id, participant.sport) == (44, "football")
    selection = parse_selected_bookmakers({"bookmakers": ["Bet365", "Pinnacle"], "count": 2})
    assert selection.bookmakers == ("Bet365", "Pinnacle") and selection.count == 2
    with pytest.raises(MalformedRecord):
        parse_selected_bookmakers({"bookmakers": "Bet365"})


VALUE_BET = {
    "id": "vb-1",
    "eventId": 72221272,
    "event": {
        "home": "A",
        "away": "B",
        "date": "2026-09-20T13:00:00Z",
        "sport": "Football",
        "league": "England - Premier League",
    },
    "bookmaker": "Bet365",
    "betSide": "home",
    "expectedValue": 4.2,
    "expectedValueUpdatedAt": "2026-09-18T18:53:59.208Z",
    "bookmakerOdds": {
        "home": "3.100",
        "draw": "3.800",
        "away": "2.150",
        "hdp": "",
        "homeDirectLink": "https://example.test/h",
        "drawDirectLink": "N/A",
        "awayDirectLink": "",
        "href": "https://example.test",
    },
    "market": {"name": "ML", "hdp": 0, "home": "2.9", "draw": "3.6", "away": "2.3", "max": 500},
}


def test_value_bet():
    bet = parse_value_bet(VALUE_BET)
    assert bet.event is not None and bet.event.sport is not None
    assert bet.event.sport == Named("Football", "football")
    assert bet.event.league == Named("England - Premier League", "england-premier-league")
    assert bet.bookmaker_prices == {"home": 3.1, "draw": 3.8, "away": 2.15}
    assert bet.bookmaker_hdp is None
    assert bet.direct_links == {"home": "https://example.test/h", "draw": None, "away": None}
    assert bet.market_prices == {"home": 2.9, "draw": 3.6, "away": 2.3}
    assert bet.expected_value == 4.2


def test_value_bet_without_event_details():
    raw = dict(VALUE_BET)
    del raw["event"]
    assert parse_value_bet(raw).event is None


ARB = {
    "id": 17,
    "eventId": "72221272",
    "impliedProbability": 0.98,
    "profitMargin": 2.04,
    "totalStake": 100,
    "updatedAt": "2026-09-18T18:53:59Z",
    "market": {"name": "ML", "hdp": 0},
    "legs": [
        {
            "bookmaker": "Bet365",
            "bookmakerFixtureId": 200549676,
            "directLink": "N/A",
            "href": "https://example.test",
            "label": "",
            "odds": "2.10",
            "side": "home",
        },
        {"bookmaker": "Pinnacle", "odds": "2.05", "side": "away"},
    ],
    "optimalStakes": [
        {"bookmaker": "Bet365", "side": "home", "stake": 49.4, "potentialReturn": 103.7},
        {"bookmaker": "Pinnacle", "side": "away", "stake": 50.6, "potentialReturn": 103.7},
    ],
}


def test_arbitrage_bet():
    arb = parse_arbitrage_bet(ARB)
    assert arb.id == "17" and arb.event_id == 72221272
    assert [leg.odds for leg in arb.legs] == [2.10, 2.05]
    assert arb.legs[0].bookmaker_fixture_id == "200549676"
    assert arb.legs[0].direct_link is None
    assert sum(stake.stake for stake in arb.optimal_stakes) == pytest.approx(100)


def test_arbitrage_leg_without_a_price_is_malformed():
    raw = copy.deepcopy(ARB)
    raw["legs"][1]["odds"] = "N/A"
    with pytest.raises(MalformedRecord, match="leg.odds"):
        parse_arbitrage_bet(raw)


def test_dropping_odds():
    item = parse_dropping_odds(
        {
            "eventId": 5,
            "market": {"hdp": 2.5, "label": "", "name": "Totals"},
            "betSide": "over",
            "odds": {
                "opening": 2.1,
                "current": 1.8,
                "drop": {"sinceOpening": 14.3, "12h": None, "24h": 5, "48h": None},
            },
            "lastMovedAt": None,
            "updatedAt": 1763719200000,
            "event": {
                "home": "A",
                "away": "B",
                "date": "2026-09-20T13:00:00Z",
                "sport": {"name": "Football", "slug": "football"},
                "league": {"name": "L", "slug": "l"},
            },
        }
    )
    assert (item.opening, item.current, item.drop_since_opening) == (2.1, 1.8, 14.3)
    assert (item.drop_12h, item.drop_24h, item.market_label) == (None, 5.0, None)
    assert item.updated_at_ms == 1763719200000 and item.last_moved_at_ms is None
    assert item.event is not None and item.event.league is not None
    assert item.event.league.slug == "l"


def test_movements_prices_are_numbers_and_timestamps_ms():
    moves = parse_movements(
        {
            "eventid": "72221272",
            "bookmaker": "Bet365",
            "opening": {"home": 2.0, "draw": 3.4, "away": 3.9, "timestamp": 1763719200000},
            "movements": [
                {"home": 2.1, "draw": 3.3, "away": 3.7, "timestamp": 1763719260000},
                {"hdp": 2.5, "over": 1.9, "under": 1.95, "timestamp": "1763719320000"},
            ],
        }
    )
    assert moves.event_id == 72221272
    assert moves.opening is not None and moves.opening.prices["home"] == 2.0
    assert [tick.timestamp_ms for tick in moves.ticks] == [1763719260000, 1763719320000]
    assert moves.ticks[1].hdp == 2.5 and moves.ticks[1].prices == {"over": 1.9, "under": 1.95}


def test_budget_from_headers():
    budget = parse_budget(
        {
            "x-ratelimit-limit": "5000",
            "x-ratelimit-remaining": "4999",
            "x-ratelimit-reset": "2026-11-21T11:00:00Z",
        }
    )
    assert budget is not None
    assert (budget.limit, budget.remaining) == (5000, 4999)
    assert budget.reset == datetime(2026, 11, 21, 11, tzinfo=UTC)
    assert parse_budget({}) is None
    odd = parse_budget({"x-ratelimit-remaining": "lots", "x-ratelimit-reset": "1763722800"})
    assert odd is not None and odd.remaining is None
    assert odd.reset == datetime.fromtimestamp(1763722800, UTC)


def test_records_are_frozen():
    parsed = parse_odds_record(record())
    with pytest.raises(AttributeError):
        parsed.event.home = "x"  # type: ignore[misc]


def test_leg_and_quote_times_are_read_when_sent():
    raw = copy.deepcopy(ARB)
    raw["legs"][0]["updatedAt"] = "2026-09-18T18:50:00Z"
    raw["market"]["label"] = "Salah"
    arb = parse_arbitrage_bet(raw)
    assert arb.legs[0].updated_at == datetime(2026, 9, 18, 18, 50, tzinfo=UTC)
    assert arb.legs[1].updated_at is None
    assert arb.market_label == "Salah"
    assert parse_arbitrage_bet(ARB).market_label is None
    value = copy.deepcopy(VALUE_BET)
    value["bookmakerOdds"]["updatedAt"] = "2026-09-18T18:40:00Z"
    assert parse_value_bet(value).bookmaker_updated_at == datetime(2026, 9, 18, 18, 40, tzinfo=UTC)
    assert parse_value_bet(VALUE_BET).bookmaker_updated_at is None
    raw["legs"][1]["updatedAt"] = "yesterday"
    with pytest.raises(MalformedRecord, match="leg.updatedAt"):
        parse_arbitrage_bet(raw)
