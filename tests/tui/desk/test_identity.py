"""Watchlist identity, pure: same match, found again, or gone; never another match."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from oddstui import config
from oddstui.tui.desk.state import EventView
from oddstui.tui.desk.watch_identity import entry_of, same_match
from oddstui.tui.desk.watchlist import Watchlist

KICK_OFF = datetime(2026, 5, 1, 18, 0, tzinfo=UTC)


def view(event_id: int, home: str, away: str, start: datetime = KICK_OFF) -> EventView:
    return EventView(event_id, "football", "Football", "epl", "EPL", home, away, start, "pending")


def test_same_match_needs_names_sport_and_a_near_kick_off() -> None:
    entry = entry_of(view(1, "Arsenal", "Chelsea"))
    assert entry.sport == "football"
    assert same_match(entry, view(9, "arsenal ", "Chelsea"))
    assert not same_match(entry, view(1, "Chelsea", "Arsenal"))
    assert not same_match(entry, view(1, "Arsenal", "Chelsea", KICK_OFF + timedelta(days=3)))
    assert same_match(config.WatchedEvent(1), view(1, "Anyone", "Else"))  # an old entry


def test_an_entry_is_found_again_or_gone_never_moved(tmp_path: Path) -> None:
    path = tmp_path / "w.toml"
    ours, other = view(1, "Arsenal", "Chelsea"), view(1, "Leeds", "Everton")
    watch = Watchlist([entry_of(ours)], path)
    assert not watch.check(watch.entries[0], other)  # id 1 names another match now
    later = view(7, "Arsenal", "Chelsea", KICK_OFF + timedelta(days=30))  # the return fixture
    assert watch.rematch(watch.entries[0], [other, later, view(5, "Arsenal", "Chelsea")]) == 5
    assert watch.is_watched(5) and not watch.is_watched(1)
    assert [item.id for item in config.load_watchlist(path)] == [5]
    stale = entry_of(ours)  # a second load that read the entries before the first re-matched
    assert watch.rematch(stale, [view(5, "Arsenal", "Chelsea")]) is None
    assert watch.gone == set() and watch.is_watched(5)

    gone = Watchlist([entry_of(ours)], path)
    assert gone.rematch(gone.entries[0], [other, later]) is None
    assert gone.gone == {1} and not gone.is_watched(1) and gone.ids() == set()
    assert gone.toggle(1, other)  # starring the other match replaces the gone entry
    assert gone.is_watched(1) and gone.entries[0].home == "Leeds"
