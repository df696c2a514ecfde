"""The feed's handshake query, checked directly (pure code); the socket tests repeat the texts."""

from __future__ import annotations

import pytest

from oddstui.server.feed.params import BadFilter, FeedFilter, parse_filter


def rejected(query: dict[str, str]) -> str:
    with pytest.raises(BadFilter) as caught:
        parse_filter(query)
    return str(caught.value)


def names(count: int, stem: str = "x") -> str:
    return ",".join(f"{stem}{n}" for n in range(count))


@pytest.mark.parametrize(
    ("query", "text"),
    [
        ({"markets": "ML", "sport": names(11)}, "Too many sports. Maximum 10 allowed."),
        ({"markets": "ML", "leagues": names(21)}, "Too many leagues. Maximum 20 allowed."),
        ({"markets": "ML", "eventIds": names(51, "")}, "Too many event IDs. Maximum 50 allowed."),
        ({"markets": names(21)}, "Too many markets. Maximum 20 allowed."),
        (
            {"markets": "ML", "leagues": "a", "eventIds": "1"},
            "Cannot use both 'leagues' and 'eventIds' filters together.",
        ),
        (
            {"markets": "ML", "status": "finished"},
            "Invalid status filter. Use 'prematch' or 'live'",
        ),
        (
            {"markets": "ML", "channels": "odds,chat"},
            "Invalid channel: chat. Allowed: odds, scores, status",
        ),
        ({"channels": "odds,scores"}, "markets is required when the odds channel is subscribed"),
        ({}, "markets is required when the odds channel is subscribed"),
    ],
)
def test_each_rule_has_its_text(query: dict[str, str], text: str) -> None:
    assert rejected(query) == text


def test_limits_are_inclusive() -> None:
    parsed = parse_filter(
        {"markets": names(20), "sport": names(10), "eventIds": ",".join(map(str, range(1, 51)))}
    )
    assert len(parsed.markets) == 20
    assert len(parsed.sports) == 10
    assert len(parsed.event_ids) == 50


def test_defaults_to_the_odds_channel() -> None:
    parsed = parse_filter({"markets": "ML"})
    assert parsed.channels == ("odds",)
    assert parsed.wants("odds") and not parsed.wants("scores")


def test_scores_and_status_need_no_markets() -> None:
    parsed = parse_filter({"channels": "scores,status"})
    assert parsed.channels == ("scores", "status")
    assert not parsed.wants("odds")


def test_markets_are_case_insensitive_and_deduplicated() -> None:
    parsed = parse_filter({"markets": "ML, totals ,ML,"})
    assert parsed.markets == ("ML", "totals")
    assert parsed.market_key == frozenset({"ml", "totals"})


def test_event_ids_and_last_seq_must_be_integers() -> None:
    assert rejected({"markets": "ML", "eventIds": "1,x"}).startswith("Invalid event ID: x")
    assert rejected({"markets": "ML", "lastSeq": "-3"}).startswith("Invalid lastSeq: -3")
    assert rejected({"markets": "ML", "lastSeq": "²"}).startswith("Invalid lastSeq")
    assert parse_filter({"markets": "ML", "lastSeq": "0"}).last_seq == 0


def test_filters_match_events() -> None:
    by_sport = parse_filter({"markets": "ML", "sport": "Football,tennis"})
    assert by_sport.matches_event("football", "any", 1)
    assert not by_sport.matches_event("basketball", "any", 1)
    by_ids = parse_filter({"markets": "ML", "eventIds": "7,9"})
    assert by_ids.matches_event("football", "x", 9) and not by_ids.matches_event("football", "x", 8)
    by_league = parse_filter({"markets": "ML", "leagues": "england-premier-league"})
    assert by_league.matches_event("football", "england-premier-league", 1)
    assert not by_league.matches_event("football", "spain-laliga", 1)


def test_status_filter_maps_prematch_to_pending() -> None:
    live = parse_filter({"markets": "ML", "status": "live"})
    prematch = parse_filter({"markets": "ML", "status": "prematch"})
    assert live.matches_status("live") and not live.matches_status("pending")
    assert prematch.matches_status("pending") and not prematch.matches_status("live")
    assert FeedFilter().matches_status("settled")
