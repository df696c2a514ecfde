"""A finished match is not tradable (issue 31): the book finds no arbitrage on a settled or
cancelled event, whether the end came by the feed's status or by a REST record (closing prices
loaded for it), and the arbitrage board's rows on it go at once, with no vanish grace."""

from __future__ import annotations

import pytest

from oddstui.book.oddsbook import OddsBook
from oddstui.tui.boards.arbitrage.arb_rows import ArbRows, scan_book
from tests.book.wire import message, ml, record, updated

ARB = {"A": [ml(2.0, 1.9)], "B": [ml(1.8, 2.25)]}  # home 2.0 at A, away 2.25 at B: 1/2 + 1/2.25 < 1


@pytest.mark.parametrize("status", ["settled", "cancelled"])
def test_the_feeds_status_ends_the_arbitrage(status: str) -> None:
    book = OddsBook(clock=lambda: 0.0)
    book.install_snapshot([record(5, ARB, sport="tennis")])
    assert [line for line, _ in book.arbitrages(5, "ML")] == [(None, None)]
    book.take_changes()
    book.apply(
        message({"type": "status", "id": 5, "status": status, "scores": {"home": 2, "away": 1}})
    )
    assert book.arbitrages(5, "ML") == []
    book.apply(updated(5, "B", [ml(1.8, 2.5)], seq=30))  # a late price: still nothing
    assert book.arbitrages_in(book.take_changes()) == []


def test_closing_prices_loaded_for_a_settled_event_make_no_arbitrage() -> None:
    book = OddsBook(clock=lambda: 0.0)
    book.install_snapshot([record(5, ARB, sport="tennis", status="settled")])
    assert book.arbitrages(5, "ML") == []
    assert scan_book(book, None)[0] == []


def test_rows_on_a_finished_event_go_at_once() -> None:
    book = OddsBook(clock=lambda: 0.0)
    book.install_snapshot([record(5, ARB, sport="tennis"), record(6, ARB, sport="tennis")])
    rows = ArbRows()
    rows.set_local(*scan_book(book, None), now=10.0)
    assert {row.event_id for row in rows.rows.values()} == {5, 6}
    gone = rows.drop_events({5}.__contains__)
    assert len(gone) == 1 and {row.event_id for row in rows.rows.values()} == {6}
    assert rows.sweep(10.0) == []  # nothing left behind, dimmed, to sweep later
