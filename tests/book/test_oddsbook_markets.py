"""Complete market lists (the built-in service's promise): a market left out is gone."""

from __future__ import annotations

from oddstui.book.oddsbook import OddsBook
from tests.book.wire import ml, record, totals, updated


def book_with_ml_and_totals(complete: bool) -> OddsBook:
    book = OddsBook(clock=lambda: 100.0)
    book.complete_markets = complete
    book.install_snapshot([record(7, {"Bet365": [ml(2.1, 3.5, 3.4), totals((2.5, 1.9, 1.95))]})])
    book.take_changes()
    return book


def test_a_market_left_out_of_a_complete_message_leaves_the_book() -> None:
    book = book_with_ml_and_totals(complete=True)
    book.apply(updated(7, "Bet365", [ml(2.2, 3.3, 3.4)], seq=10))
    assert book.market_names(7) == ["ML"]
    assert book.market(7, "Bet365", "Totals") is None
    assert book.take_changes() == {(7, "Bet365", "ML"), (7, "Bet365", "Totals")}


def test_without_the_promise_messages_merge_by_market_name() -> None:
    book = book_with_ml_and_totals(complete=False)
    book.apply(updated(7, "Bet365", [ml(2.2, 3.3, 3.4)], seq=10))
    assert sorted(book.market_names(7)) == ["ML", "Totals"]
