"""Property tests: the book after any message sequence equals a plain merge-by-name model."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from oddstui.book.oddsbook import OddsBook
from tests.book.wire import cleared, ml, record, totals, updated
from tests.odds_views import book_view, record_view

BOOKIES = ("A", "B", "C")
price = st.integers(101, 1500).map(lambda x: x / 100)
ml_market = st.builds(ml, price, price, price)
totals_market = st.lists(
    st.tuples(st.sampled_from([1.5, 2.5, 3.5]), price, price),
    min_size=1,
    max_size=3,
    unique_by=lambda line: line[0],
).map(lambda lines: totals(*lines))
markets = st.lists(
    st.one_of(ml_market, totals_market), min_size=1, max_size=2, unique_by=lambda m: m["name"]
)
step = st.one_of(
    st.tuples(st.just("updated"), st.sampled_from(BOOKIES), markets),
    st.tuples(st.sampled_from(["deleted", "no_markets"]), st.sampled_from(BOOKIES), st.just([])),
)


def run(steps: list[tuple[str, str, list[dict[str, Any]]]], repeat: bool) -> tuple[OddsBook, dict]:
    book = OddsBook(clock=lambda: 0.0)
    model: dict[str, dict[str, dict[str, Any]]] = {}
    for seq, (kind, bookie, market_list) in enumerate(steps, start=1):
        if kind == "updated":
            msg = updated(1, bookie, market_list, seq=seq, received=float(seq))
            model.setdefault(bookie, {}).update({m["name"]: m for m in market_list})
        else:
            msg = cleared(1, bookie, kind, seq=seq, received=float(seq))
            model.pop(bookie, None)
        book.apply(msg)
        if repeat:
            book.apply(msg)
    return book, model


@settings(max_examples=150, deadline=None)
@given(st.lists(step, max_size=25), st.booleans())
def test_the_book_equals_a_merge_by_market_name(steps, repeat: bool) -> None:
    book, model = run(steps, repeat)
    expected = record(1, {bookie: list(held.values()) for bookie, held in model.items()})
    assert book_view(book, 1) == record_view(expected)


@settings(max_examples=100, deadline=None)
@given(st.lists(step, min_size=1, max_size=25))
def test_changes_name_every_market_that_differs(steps) -> None:
    book = OddsBook(clock=lambda: 0.0)
    # non-empty: st.lists(step, min_size=1)
    for seq, (kind, bookie, market_list) in enumerate(steps, start=1):
        before = book_view(book, 1)
        if kind == "updated":
            book.apply(updated(1, bookie, market_list, seq=seq))
        else:
            book.apply(cleared(1, bookie, kind, seq=seq))
        after = book_view(book, 1)
        changes = book.take_changes()
        differing = {
            (1, b, m)
            for b in set(before) | set(after)
            for m in set(before.get(b, {})) | set(after.get(b, {}))
            if before.get(b, {}).get(m) != after.get(b, {}).get(m)
        }
        market_changes = {key for key in changes if len(key) == 3}
        assert market_changes == differing


@settings(max_examples=100, deadline=None)
@given(st.lists(step, max_size=20), st.lists(step, max_size=20))
def test_a_snapshot_replaces_whatever_came_before(before, after) -> None:
    book, _ = run(before, repeat=False)
    _, model = run(after, repeat=False)
    snapshot = record(1, {bookie: list(held.values()) for bookie, held in model.items()})
    book.install_snapshot([snapshot], received=1000.0)
    assert book_view(book, 1) == record_view(snapshot)
