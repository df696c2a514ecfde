"""The fast decoder of odds messages agrees with the general path on every line it takes, and
so does its form that leaves each market as text to decode on its own (the backtest's)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oddstui.api.messages import _PARSERS, OddsMessage, parse_frame
from oddstui.api.models import Line
from oddstui.api.odds_decoder import (
    NOT_FAST,
    DecodeError,
    NotFast,
    decode_market,
    decode_odds,
    decode_odds_head,
    decode_odds_texts,
)

# Odds messages as the services send them, and now and then something the fast decoder must
# leave to the general path: a suspended or missing price, text where a number goes, an id
# under another key, another message type. Labelled lines (player props) take its second decode.
good_price = st.floats(min_value=1.01, max_value=30).map(lambda x: f"{x:.3f}")
wire_price = st.one_of(
    good_price,
    good_price,
    good_price,
    st.sampled_from(["1.850", "2.0", "1e1", "N/A", "", "abc", " 2.5 ", "1.00", "0", "inf", "nan"]),
    st.floats(allow_nan=False, allow_infinity=False, min_value=-2, max_value=40),
    st.sampled_from([-1, 0, 3, None, True, False]),
)
wire_number = st.one_of(
    st.sampled_from([-1.5, -0.5, 0, 1, 2.5, 500]),
    st.sampled_from([-1.5, 0.5, 1.5, 180.5]),
    st.sampled_from(["x", "1.5", "nan", True, None]),
)
wire_line = st.dictionaries(
    st.sampled_from(["home", "draw", "away", "over", "under", "weird"]), wire_price, max_size=3
).flatmap(
    lambda prices: st.fixed_dictionaries(
        {},
        optional={
            "hdp": wire_number,
            "max": wire_number,
            "label": st.sampled_from(["Smith", "J. Doe Jr", "", 7, None]),
        },
    ).map(lambda extra: {**prices, **extra})
)
wire_market = st.fixed_dictionaries(
    {
        "name": st.sampled_from(["ML", "Spread", "Totals", "ML", ""]),
        "odds": st.lists(wire_line, max_size=3),
    },
    optional={"updatedAt": st.sampled_from(["2026-11-21T10:00:01Z", "", "yesterday", None])},
)
wire_message = st.fixed_dictionaries(
    {
        "type": st.sampled_from(
            ["updated", "updated", "created", "deleted", "no_markets", "score"]
        ),
        "seq": st.one_of(st.integers(1, 2**40), st.sampled_from(["17", 18.0, "x", True])),
        "id": st.one_of(st.integers(1, 10**9), st.sampled_from(["61008909", "x"])),
        "bookie": st.sampled_from(["Bet365", "Bücher & [Co]", "Bet365", ""]),
        "markets": st.one_of(st.lists(wire_market, max_size=3), st.none(), st.just("x")),
    },
    optional={
        "eventId": st.just(61008910),
        "timestamp": st.sampled_from(["2026-11-21T10:00:01.250Z", "late"]),
        "url": st.sampled_from(["https://bet365.example/e/1", "N/A", 3, None]),
        "extra": st.just({"nested": [1, 2]}),
    },
)


# Plain odds messages, the kind the fast path exists for: it must take every one of them.
plain_line = st.dictionaries(st.sampled_from(["home", "draw", "away", "over", "under"]), good_price)
plain_market = st.fixed_dictionaries(
    {"name": st.sampled_from(["ML", "Spread", "Totals"]), "odds": st.lists(plain_line, max_size=3)},
    optional={"updatedAt": st.just("2026-11-21T10:00:01Z")},
)
plain_message = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["updated", "created"]),
        "seq": st.integers(1, 2**40),
        "id": st.integers(1, 10**9),
        "bookie": st.sampled_from(["Bet365", "Bücher & [Co]"]),
        "markets": st.lists(plain_market, max_size=3),
    },
)


def _general(line: str) -> Any:
    """What the general path alone makes of a line: a message, or "malformed"."""
    raw = json.loads(line)
    try:
        return _PARSERS[raw["type"]](raw, 5.0)
    except (ValueError, TypeError, KeyError):
        return "malformed"


def _fast(line: str) -> OddsMessage | None:
    try:
        fast = decode_odds(line)
    except (DecodeError, NotFast, ValueError):
        return None
    return None if fast is None else OddsMessage(*fast, 5.0)


def _fast_by_market(line: str) -> OddsMessage | None:
    try:
        fast = decode_odds_texts(line)
        if fast is None:
            return None
        *head, texts = fast
        return OddsMessage(*head, tuple(decode_market(text) for text in texts), 5.0)  # type: ignore[arg-type]
    except NOT_FAST:
        return None


@pytest.mark.parametrize("fast_path", [_fast, _fast_by_market])
def test_the_fast_decoder_agrees_with_the_general_path(
    fast_path: Callable[[str], OddsMessage | None],
) -> None:
    compared: list[bool] = []  # one entry per example that reached the comparison

    @settings(max_examples=1500, database=None)
    @given(
        st.one_of(plain_message.map(lambda m: (True, m)), wire_message.map(lambda m: (False, m)))
    )
    def check(case: tuple[bool, dict[str, Any]]) -> None:
        plain, message = case
        line = json.dumps(message)
        fast = fast_path(line)
        if plain:
            assert fast is not None, "the fast path declined a plain odds message"
        if fast is not None:
            assert fast == _general(line)
            compared.append(plain)

    check()
    # Half the examples are plain and all of those must be compared; some of the rest too.
    assert len(compared) >= 500, f"only {len(compared)} of 1500 examples reached the comparison"
    assert not all(compared), "no example off the plain path was compared"


def test_the_head_decoder_agrees_with_the_general_path_on_all_but_the_quotes() -> None:
    """A relay's decode (`quotes=False`): every field but the markets as the general path has
    them; the markets are left to the line's reader, so a message whose only fault is in its
    markets passes (the general path takes it once its markets are emptied)."""
    compared: list[bool] = []

    @settings(max_examples=600, database=None)
    @given(
        st.one_of(plain_message.map(lambda m: (True, m)), wire_message.map(lambda m: (False, m)))
    )
    def check(case: tuple[bool, dict[str, Any]]) -> None:
        plain, message = case
        line = json.dumps(message)
        try:
            head = decode_odds_head(line)
        except NOT_FAST:
            head = None
        if plain:
            assert head is not None, "the head decoder declined a plain odds message"
        if head is None:
            return
        assert head[-1] == ()
        emptied = _general(json.dumps({**message, "markets": []}))
        assert OddsMessage(*head, 5.0) == emptied
        compared.append(plain)

    check()
    assert len(compared) >= 240, f"only {len(compared)} of 600 examples reached the comparison"
    assert not all(compared), "no example off the plain path was compared"


def test_plain_odds_messages_take_the_fast_path() -> None:
    line = json.dumps(
        {
            "type": "updated",
            "seq": "42",
            "id": 61008909,
            "bookie": "Bet365",
            "url": "N/A",
            "markets": [
                {"name": "ML", "odds": [{"home": "2.100", "draw": "3.4", "away": 3}]},
                {
                    "name": "Totals",
                    "odds": [{"hdp": 2.5, "over": "1.9", "under": "1.9", "max": 500}],
                },
            ],
        }
    )
    fast = decode_odds(line)
    assert fast is not None
    message = OddsMessage(*fast, 5.0)
    assert message == _general(line)
    assert message.seq == 42 and message.url is None
    assert message.markets[0].lines == (
        Line(None, None, {"home": 2.1, "draw": 3.4, "away": 3.0}, None),
    )
    assert message.markets[1].lines == (Line(2.5, None, {"over": 1.9, "under": 1.9}, 500.0),)


def test_player_lines_take_the_fast_path_too() -> None:
    line = json.dumps(
        {
            "type": "updated",
            "seq": 7,
            "id": 61008909,
            "bookie": "Bet365",
            "markets": [
                {"name": "ML", "odds": [{"home": "2.100", "away": "1.8"}]},
                {
                    "name": "Player Props",
                    "odds": [
                        {"label": "Smith", "hdp": 1.5, "over": "1.85", "under": "1.95"},
                        {"label": "Jones", "hdp": 0.5, "over": 2, "under": "1.7", "max": 50},
                    ],
                },
            ],
        }
    )
    fast = decode_odds(line)
    assert fast is not None
    message = OddsMessage(*fast, 5.0)
    assert message == _general(line)
    assert message.markets[1].lines[1] == Line(0.5, "Jones", {"over": 2.0, "under": 1.7}, 50.0)


def test_what_the_fast_decoder_leaves_to_the_general_path() -> None:
    def market(entry: dict[str, Any]) -> str:
        body = {
            "type": "updated",
            "seq": 1,
            "id": 7,
            "bookie": "B",
            "markets": [{"name": "X", "odds": [entry]}],
        }
        return json.dumps(body)

    for line in [
        market({"label": 7, "yes": "1.9"}),  # a label that is no name
        market({"label": "Smith", "over": "1.9", "under": "N/A"}),  # a player's missing price
        market({"home": "N/A", "away": "1.9"}),  # a missing price
        market({"home": "1.00", "away": "1.9"}),  # a suspended side
        market({"home": "inf", "away": "1.9"}),
        market({"hdp": "nan", "home": "1.9"}),
        '{"type":"score","id":7,"scores":{"home":1,"away":0}}',
        '{"type":"updated","seq":1,"eventId":7,"bookie":"B"}',
    ]:
        try:
            assert decode_odds(line) is None, line
        except (DecodeError, NotFast, ValueError):
            pass
        messages, malformed = parse_frame(line)
        assert len(messages) + malformed == 1  # and the general path still takes it or counts it
