"""A line cut to a client's markets keeps exactly those markets, and every other byte as sent."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from oddstui.server.feed.render import cut_markets

market = st.one_of(
    st.fixed_dictionaries(
        {
            "name": st.sampled_from(["ML", "Spread", "totals", "Player Points", "", 7]),
            "odds": st.lists(
                st.dictionaries(
                    st.sampled_from(["home", "away", "label", "hdp"]),
                    st.one_of(st.sampled_from(["1.850", "2.0", "Smith"]), st.floats(-3, 30)),
                    max_size=3,
                ),
                max_size=2,
            ),
        }
    ),
    st.sampled_from([3, "ML", None, ["ML"]]),  # not a market: never kept
)
message = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["created", "updated"]),
        "seq": st.integers(1, 2**40),
        "id": st.integers(1, 10**9),
        "bookie": st.sampled_from(["Bet365", "Bücher & [Co] \u2028"]),
        "markets": st.lists(market, max_size=5),
    },
    optional={"url": st.just("https://b.example/e/1"), "extra": st.just({"a": [1, 2.50]})},
)
wanted = st.frozensets(st.sampled_from(["ml", "spread", "totals", "player points", "7"]))


@settings(max_examples=300, database=None)
@given(message, wanted)
def test_only_the_wanted_markets_stay_and_the_rest_is_unchanged(
    raw: dict[str, object], key: frozenset[str]
) -> None:
    line = json.dumps(raw, ensure_ascii=False)
    cut = json.loads(cut_markets(line, key))
    markets = raw["markets"]
    assert isinstance(markets, list)
    kept = [m for m in markets if isinstance(m, dict) and str(m["name"]).casefold() in key]
    assert cut == {**raw, "markets": kept}


def test_numbers_and_text_keep_their_own_spelling() -> None:
    line = (
        '{"type":"updated","seq":9,"price":1.50,"bookie":"B\\u00fc",'
        '"markets":[{"name":"ML","odds":[{"home":2.10}]},{"name":"Spread","odds":[]}]}'
    )
    assert cut_markets(line, frozenset({"ml"})) == (
        '{"type":"updated","seq":9,"price":1.50,"bookie":"B\\u00fc",'
        '"markets":[{"name":"ML","odds":[{"home":2.10}]}]}'
    )


def test_a_message_without_a_market_list_is_left_whole() -> None:
    line = '{"type":"deleted","seq":3,"id":1,"bookie":"B","markets":null}'
    assert json.loads(cut_markets(line, frozenset({"ml"}))) == json.loads(line)
