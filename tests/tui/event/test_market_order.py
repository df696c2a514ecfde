"""The order in which the Event screen cycles markets."""

from __future__ import annotations

from oddstui.tui.event.market_order import market_order


def test_markets_cycle_main_first_then_parts_then_the_rest_props_last() -> None:
    names = [
        "Player Props",
        "Corners Totals",
        "Totals HT",
        "Team Total Home",
        "Totals",
        "Spread 2H",
        "Both Teams To Score",
        "ML",
        "Spread HT",
        "Double Chance",
        "Spread",
    ]
    assert market_order(names, "football") == [
        "ML",
        "Spread",
        "Totals",
        "Double Chance",
        "Both Teams To Score",
        "Team Total Home",
        "Spread HT",
        "Totals HT",
        "Spread 2H",
        "Corners Totals",
        "Player Props",
    ]
    # Elsewhere a football market is not promoted: only the common main markets lead.
    assert market_order(names, "basketball")[:4] == ["ML", "Spread", "Totals", "Team Total Home"]
    assert market_order(["Totals 1Q", "Totals 2Q", "ML 1Q"], None) == [
        "ML 1Q",
        "Totals 1Q",
        "Totals 2Q",
    ]
