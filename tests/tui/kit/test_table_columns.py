"""Column priorities, natural sorting, the text filter and the kept table choices (pure code)."""

from __future__ import annotations

from pathlib import Path

import pytest

from oddstui import config
from oddstui.tui.browse.event_rows import LIVE_COLUMNS, SPORT_EVENTS_COLUMNS, WATCHLIST_COLUMNS
from oddstui.tui.kit.columns import (
    ALWAYS,
    PADDING,
    Column,
    as_column,
    fit,
    matches,
    natural,
    sort_keys,
)
from oddstui.tui.kit.table_prefs import TablePrefs, TablePrefsStore, load_table_prefs

#: What a table has at 80 columns: the terminal less the vertical scrollbar.
AT_80 = 78

COLUMNS = [
    Column("a", "A", 10),
    Column("b", "B", 10, priority=2),
    Column("c", "C", 10, priority=1, grow=5),
    Column("d", "D", 10, priority=2),
]


def keys(chosen: list[tuple[Column, int]]) -> list[str]:
    return [column.key for column, _ in chosen]


def test_least_needed_columns_go_first_rightmost_among_equals() -> None:
    assert keys(fit(COLUMNS, 4 * (10 + PADDING))) == ["a", "b", "c", "d"]
    assert keys(fit(COLUMNS, 3 * (10 + PADDING))) == ["a", "b", "c"]
    assert keys(fit(COLUMNS, 2 * (10 + PADDING))) == ["a", "c"]
    assert keys(fit(COLUMNS, 5)) == ["a"]  # priority 0 stays even when it does not fit


def test_spare_room_widens_growing_columns_up_to_their_limit() -> None:
    widths = dict((column.key, width) for column, width in fit(COLUMNS, 200))
    assert widths == {"a": 10, "b": 10, "c": 15, "d": 10}
    widths = dict((column.key, width) for column, width in fit(COLUMNS, 4 * 12 + 3))
    assert widths["c"] == 13


def test_hidden_columns_stay_hidden_but_never_all() -> None:
    assert keys(fit(COLUMNS, 200, hidden={"b", "c"})) == ["a", "d"]
    assert keys(fit(COLUMNS, 200, hidden={"a", "b", "c", "d"})) == ["a"]


@pytest.mark.parametrize(
    ("columns", "needed"),
    [
        (LIVE_COLUMNS, {"event", "score", "clock", "periods", "league"}),
        (WATCHLIST_COLUMNS, {"event", "start", "score", "clock", "league"}),
        (SPORT_EVENTS_COLUMNS, {"event", "start", "score", "clock", "league"}),
    ],
)
def test_80_columns_keep_what_a_trader_needs_first(columns: list[Column], needed: set[str]) -> None:
    chosen = fit(columns, AT_80)
    assert needed <= set(keys(chosen))
    assert sum(width + PADDING for _, width in chosen) <= AT_80


def test_a_wide_terminal_widens_names_and_shows_more() -> None:
    narrow = dict((column.key, width) for column, width in fit(LIVE_COLUMNS, AT_80))
    wide = dict((column.key, width) for column, width in fit(LIVE_COLUMNS, 198))
    assert wide["event"] > narrow["event"] >= 22
    assert {"sport", "books", "detail"} <= wide.keys()
    assert not {"sport", "books", "detail"} & narrow.keys()


def test_bare_tuples_are_always_shown_and_their_names_widen() -> None:
    event, price = as_column(("event", "Event", 24)), as_column(("price", "Price", 6))
    assert (event.priority, event.grow, price.grow) == (ALWAYS, 24, 0)
    assert keys(fit([event, price], 10)) == ["event", "price"]  # never dropped
    assert dict((c.key, w) for c, w in fit([event, price], 200)) == {"event": 48, "price": 6}


def test_natural_order_reads_numbers_as_numbers() -> None:
    texts = ["10:00", "9:05", "107:04", "", "2-1"]
    assert sorted(texts, key=natural) == ["", "2-1", "9:05", "10:00", "107:04"]


def test_sort_is_stable_and_puts_missing_values_last_both_ways() -> None:
    values = {"a": 2, "b": None, "c": 1, "d": 2}
    assert sort_keys(list(values), values.get) == ["c", "a", "d", "b"]
    assert sort_keys(list(values), values.get, descending=True) == ["a", "d", "c", "b"]


def test_filter_needs_every_word_ignoring_case_and_accents() -> None:
    row = {"event": "Wanderers v Zürich SC", "league": "Swiss Super League"}
    assert matches(row, "zurich")
    assert matches(row, "SWISS wander")
    assert not matches(row, "zurich basel")
    assert matches(row, "  ")


def test_choices_survive_a_new_store(tmp_path: Path) -> None:
    path = tmp_path / "tables.toml"
    store = TablePrefsStore(path)
    store.put("live", TablePrefs("clock", True, frozenset({"periods"})))
    again = TablePrefsStore(path)
    assert again.get("live") == TablePrefs("clock", True, frozenset({"periods"}))
    assert again.get("events") == TablePrefs()
    assert again.warning is None


def test_a_broken_file_is_refused_then_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "tables.toml"
    path.write_text("[live]\ndescending = 'yes'\n")
    with pytest.raises(config.ConfigError, match="descending"):
        load_table_prefs(path)
    store = TablePrefsStore(path)
    assert store.get("live") == TablePrefs()
    assert store.warning is not None and "tables.toml.bak" in store.warning
    assert (tmp_path / "tables.toml.bak").exists() and not path.exists()
