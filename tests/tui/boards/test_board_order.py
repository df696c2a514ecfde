"""Board order, gone rows, suspect marks and leg names: pure code, tested directly."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from oddstui.book.suspect import suspicion
from oddstui.tui.boards.order import SORT_KEYS, GoneRows, Rank, arrange, next_sort_key
from oddstui.tui.kit.leg_words import leg_label, line_text


def test_live_rows_by_profit_then_gone_rows_newest_gone_first() -> None:
    ranks = {
        "a": Rank(profit=3.92),
        "b": Rank(profit=62.0, gone=100.0),
        "c": Rank(profit=3.23),
        "d": Rank(profit=37.0, gone=105.0),
        "e": Rank(profit=3.71),
    }
    assert arrange(ranks, "profit") == ["a", "e", "c", "d", "b"]


def test_each_sort_key() -> None:
    ranks = {
        "x": Rank(profit=1.0, age=30, start=300, sport="Tennis"),
        "y": Rank(profit=2.0, age=10, start=None, sport="Football"),
        "z": Rank(profit=3.0, age=None, start=100, sport="Tennis"),
    }
    assert arrange(ranks, "profit") == ["z", "y", "x"]
    assert arrange(ranks, "age") == ["y", "x", "z"]
    assert arrange(ranks, "start") == ["z", "x", "y"]
    assert arrange(ranks, "sport") == ["y", "z", "x"]
    assert [next_sort_key(key) for key in SORT_KEYS] == [*SORT_KEYS[1:], SORT_KEYS[0]]


def test_equal_profits_as_shown_keep_their_places() -> None:
    ranks = {"a": Rank(profit=2.001), "b": Rank(profit=2.004), "c": Rank(profit=2.0)}
    assert arrange(ranks, "profit", current=["c", "b", "a"]) == ["c", "b", "a"]
    assert arrange(ranks, "profit", current=["b", "a"]) == ["b", "a", "c"]


def test_the_highlighted_row_keeps_its_index_live_or_gone() -> None:
    current = ["a", "b", "c", "d"]
    ranks = {
        "a": Rank(profit=1.0),
        "b": Rank(profit=2.0),
        "c": Rank(profit=9.0),
        "d": Rank(profit=5.0),
    }
    assert arrange(ranks, "profit", current, pinned="b") == ["c", "b", "d", "a"]
    # A pinned row that went holds the cursor where it was (the board keeps it, dimmed, until
    # the trader moves); unpinned, it drops below every live row.
    gone = {**ranks, "b": Rank(profit=2.0, gone=1.0)}
    assert arrange(gone, "profit", current, pinned="b") == ["c", "b", "d", "a"]
    assert arrange(gone, "profit", current) == ["c", "d", "a", "b"]


@given(
    st.dictionaries(
        st.text("abcdefgh", min_size=1, max_size=3),
        st.tuples(st.floats(-50, 80, allow_nan=False), st.one_of(st.none(), st.floats(0, 1e6))),
        max_size=25,
    ),
    st.sampled_from(SORT_KEYS),
    st.data(),
)
def test_no_gone_row_above_a_live_one_and_the_pin_holds(
    rows: dict[str, tuple[float, float | None]], by: str, data: st.DataObject
) -> None:
    ranks = {key: Rank(profit=profit, gone=gone, sport=key) for key, (profit, gone) in rows.items()}
    current = data.draw(st.permutations(sorted(ranks)))
    pinned = data.draw(st.one_of(st.none(), st.sampled_from(current))) if current else None
    shown = current[: data.draw(st.integers(0, len(current)))]  # the rest are new
    resort = data.draw(st.booleans())
    order = arrange(ranks, by, shown, pinned if pinned in shown else None, resort=resort)
    assert sorted(order) == sorted(ranks)
    held = pinned if pinned in shown else None
    states = [ranks[key].gone is None for key in order if key != held]
    assert states == sorted(states, reverse=True), "live rows first (but a gone one held)"
    live = [key for key in current if ranks[key].gone is None]
    if held is not None and ranks[held].gone is None:
        assert order.index(held) == min(shown.index(held), len(live) - 1)
    elif held is not None:
        assert order.index(held) == min(shown.index(held), len(order) - 1)


def test_gone_rows_are_kept_for_the_grace_then_forgotten() -> None:
    gone: GoneRows[str] = GoneRows(grace=30)
    gone.update({"a": "A", "b": "B"}, now=0)
    assert gone.rows == {}
    gone.update({"a": "A2"}, now=10)
    assert gone.rows == {"b": ("B", 10)}
    gone.update({"a": "A2"}, now=20)
    assert gone.rows == {"b": ("B", 10)}, "the time it went is kept"
    gone.update({"a": "A2", "b": "B2"}, now=25)
    assert gone.rows == {}, "a row that comes back is live"
    gone.update({}, now=30)
    assert set(gone.rows) == {"a", "b"}
    assert not gone.sweep(59)
    assert gone.sweep(60) and gone.rows == {}
    gone.update({"c": "C"}, now=61)
    gone.clear()
    gone.update({}, now=62)
    assert gone.rows == {}, "after clear, what is missing was never shown"


def test_suspicion() -> None:
    assert suspicion(3.0, [100.0, 120.0], changed_at=110.0, threshold=15) == (
        "a leg was quoted before the last score or status change"
    )
    assert suspicion(3.0, [111.0, None], changed_at=110.0, threshold=15) == ""
    assert suspicion(47.0, [111.0], changed_at=None, threshold=15) == "profit above 15%"
    assert suspicion(15.0, [], changed_at=None, threshold=15) == ""
    assert suspicion(99.0, [], changed_at=None, threshold=None) == ""


def test_leg_labels_name_the_line() -> None:
    assert leg_label("Spread", "home", -1.5, home="Arsenal", away="Spurs") == "Arsenal -1.5"
    assert leg_label("Spread", "away", -1.5, home="Arsenal", away="Spurs") == "Spurs +1.5"
    assert leg_label("Totals", "over", 2.5) == "Over 2.5"
    assert leg_label("ML", "draw", None) == "Draw"
    assert leg_label("ML", "home", None) == "Home"
    assert leg_label("Player Props", "over", 0.5, label="Salah") == "Salah Over 0.5"
    assert line_text("Asian Handicap", 0.25, "away") == "-0.25"
    assert line_text("ML", None) == ""


def test_between_sorts_rows_keep_their_order_and_new_ones_slot_in_above_the_gone() -> None:
    ranks = {
        "a": Rank(profit=1.0),
        "b": Rank(profit=2.0, gone=5.0),
        "c": Rank(profit=3.0),
        "d": Rank(profit=0.5),
        "new": Rank(profit=2.0),
        "newer": Rank(profit=0.1),
    }
    # a, c, d are out of order (their prices moved): they stay; the new rows go where their
    # profit puts them among the rows shown; the gone row stays last.
    current = ["a", "b", "c", "d"]
    order = arrange(ranks, "profit", current, resort=False)
    assert order == ["new", "a", "c", "d", "newer", "b"]
    assert arrange(ranks, "profit", current, pinned="a", resort=False)[1] == "new"
    assert arrange(ranks, "profit", current, pinned="a", resort=False)[0] == "a"
