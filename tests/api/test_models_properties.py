"""Property tests: whatever JSON arrives, parsing returns a record or raises MalformedRecord."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oddstui.api.errors import MalformedRecord
from oddstui.api.models import (
    parse_arbitrage_bet,
    parse_bookmaker,
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
    parse_value_bet,
)
from tests.api.test_models import ARB, RECORD, VALUE_BET

PARSERS = [
    parse_arbitrage_bet,
    parse_bookmaker,
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
    parse_value_bet,
]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["N/A", "1.95", "2026-09-20T13:00:00Z", "home", "-", "1e400", "0x10"]),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


def _outcome(parse: Any, value: Any) -> None:
    try:
        parse(value)
    except MalformedRecord as error:
        assert str(error)  # a short reason, never empty
        assert len(str(error)) < 200


@pytest.mark.parametrize("parse", PARSERS, ids=lambda parse: parse.__name__)
@settings(max_examples=60, deadline=None)
@given(value=json_values)
def test_any_json_parses_or_is_malformed(parse, value):
    _outcome(parse, value)


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


def _replace(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    target = value
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = new
    return value


@pytest.mark.parametrize(
    "parse, sample",
    [(parse_odds_record, RECORD), (parse_value_bet, VALUE_BET), (parse_arbitrage_bet, ARB)],
    ids=["odds_record", "value_bet", "arbitrage"],
)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_one_field_of_a_real_record_replaced_by_anything(parse, sample, data):
    """Mutations of a real record reach the deep fields that random JSON never gets to."""
    paths = _paths(sample)
    path = data.draw(st.sampled_from(paths))
    new = data.draw(json_values)
    _outcome(parse, _replace(copy.deepcopy(sample), path, new))


@settings(max_examples=100, deadline=None)
@given(
    prices=st.dictionaries(
        st.sampled_from(["home", "draw", "away", "over", "under", "yes", "no", "layHome", "odd"]),
        st.floats(min_value=1.01, max_value=1000, allow_nan=False).map(lambda x: f"{x:.3f}"),
        min_size=1,
    ),
    hdp=st.none() | st.floats(min_value=-50, max_value=50, allow_nan=False),
)
def test_valid_price_strings_round_trip(prices, hdp):
    entry: dict[str, Any] = dict(prices)
    if hdp is not None:
        entry["hdp"] = hdp
    line = parse_market({"name": "X", "odds": [entry]}).lines[0]
    assert line.hdp == hdp
    assert line.prices == {side: float(text) for side, text in prices.items()}
