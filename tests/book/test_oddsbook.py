from __future__ import annotations

import pytest

from oddstui.api.models import Event, parse_event
from oddstui.book.oddsbook import OddsBook
from tests.book.wire import cleared, message, ml, record, totals, updated
from tests.odds_views import book_view, record_view, view_differences

ML: tuple[None, None] = (None, None)


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def snapshot_book(sport: str = "football") -> tuple[OddsBook, FakeClock]:
    clock = FakeClock()
    book = OddsBook(clock=clock)
    book.install_snapshot(
        [
            record(
                7,
                {
                    "Bet365": [ml(2.1, 3.5, 3.4), totals((2.5, 1.9, 1.95), (3.5, 2.8, 1.45))],
                    "Pinnacle": [ml(2.15, 3.45, 3.3)],
                },
                sport=sport,
            )
        ]
    )
    return book, clock


def test_snapshot_equals_the_record() -> None:
    rec = record(7, {"Bet365": [ml(2.1, 3.5, 3.4), totals((2.5, 1.9, 1.95))]})
    book = OddsBook(clock=FakeClock())
    book.install_snapshot([rec])
    assert book_view(book, 7) == record_view(rec)
    state = book.event(7)
    assert state is not None and state.header is not None
    assert state.header.home == "Home FC"
    assert state.status == "pending"
    assert state.urls["Bet365"] == "https://bet365.example/7"
    assert book.take_changes() == {
        (7,),
        (7, "Bet365"),
        (7, "Bet365", "ML"),
        (7, "Bet365", "Totals"),
    }


def test_an_ml_only_update_leaves_totals_in_place() -> None:
    book, _ = snapshot_book()
    book.take_changes()
    book.apply(updated(7, "Bet365", [ml(2.2, 3.3, 3.4)], seq=10))
    assert book.price(7, "Bet365", "ML", ML, "home") == 2.2
    assert book.price(7, "Bet365", "Totals", (2.5, None), "over") == 1.9
    assert book.take_changes() == {(7, "Bet365", "ML")}


@pytest.mark.parametrize("kind", ["deleted", "no_markets"])
def test_deleted_and_no_markets_clear_that_bookmaker(kind: str) -> None:
    book, _ = snapshot_book()
    book.take_changes()
    book.apply(cleared(7, "Bet365", kind, seq=11))
    assert book.bookmakers(7) == ["Pinnacle"]
    assert book.market(7, "Bet365", "ML") is None
    assert set(book_view(book, 7)) == {"Pinnacle"}
    assert book.take_changes() == {(7, "Bet365"), (7, "Bet365", "ML"), (7, "Bet365", "Totals")}
    # Clearing twice changes nothing more.
    book.apply(cleared(7, "Bet365", kind, seq=12))
    assert book.take_changes() == set()


def test_bookmakers_left_out_of_a_new_selection_are_forgotten() -> None:
    book, _ = snapshot_book()
    book.take_changes()
    book.keep_bookmakers(["Pinnacle", "Unibet"])
    assert book.bookmakers(7) == ["Pinnacle"]
    assert book.take_changes() == {(7, "Bet365"), (7, "Bet365", "ML"), (7, "Bet365", "Totals")}
    book.keep_bookmakers(["Pinnacle"])
    assert book.take_changes() == set()


def test_applying_a_message_twice_changes_nothing_the_second_time() -> None:
    book, _ = snapshot_book()
    book.take_changes()
    update = updated(7, "Pinnacle", [ml(2.0, 3.6, 3.5), totals((2.5, 1.88, 1.98))], seq=12)
    book.apply(update)
    first = book_view(book, 7)
    move = book.movement(7, "Pinnacle", "ML", ML, "home")
    assert book.take_changes() == {(7, "Pinnacle", "ML"), (7, "Pinnacle", "Totals")}
    again = updated(
        7, "Pinnacle", [ml(2.0, 3.6, 3.5), totals((2.5, 1.88, 1.98))], seq=12, received=9
    )
    book.apply(again)
    assert book_view(book, 7) == first
    assert book.movement(7, "Pinnacle", "ML", ML, "home") == move
    assert book.take_changes() == set()


def test_movement_records_direction_previous_price_and_time() -> None:
    book, _ = snapshot_book()
    book.apply(updated(7, "Bet365", [ml(2.0, 3.7, 3.4)], seq=13, received=200.0))
    down = book.movement(7, "Bet365", "ML", ML, "home")
    up = book.movement(7, "Bet365", "ML", ML, "away")
    assert down is not None and (down.previous, down.direction, down.since) == (2.1, -1, 200.0)
    assert up is not None and (up.previous, up.direction) == (3.5, 1)
    assert book.movement(7, "Bet365", "ML", ML, "draw") is None  # unchanged
    assert book.recent_move(7, "Bet365", "ML", ML, "home", now=202.0) == -1
    assert book.recent_move(7, "Bet365", "ML", ML, "away", now=202.0) == 1
    assert book.recent_move(7, "Bet365", "ML", ML, "home", now=204.0, within=3.0) == 0


def test_price_age_counts_from_the_last_change() -> None:
    book, clock = snapshot_book()  # installed at 100
    book.apply(updated(7, "Bet365", [ml(2.0, 3.5, 3.4)], seq=14, received=150.0))
    assert book.price_age(7, "Bet365", "ML", ML, "home", now=160.0) == 10.0
    assert book.price_age(7, "Bet365", "ML", ML, "away", now=160.0) == 60.0
    assert book.price_age(7, "Bet365", "ML", ML, "nothing", now=160.0) is None


def test_a_new_line_appears_and_a_vanished_line_goes() -> None:
    book, _ = snapshot_book()
    book.apply(updated(7, "Bet365", [totals((2.5, 1.9, 1.95), (1.5, 1.3, 3.4))], seq=15))
    assert book.lines(7, "Totals") == [(1.5, None), (2.5, None)]
    new = book.movement(7, "Bet365", "Totals", (1.5, None), "over")
    assert new is not None and new.previous is None and new.direction == 0
    assert book.price(7, "Bet365", "Totals", (3.5, None), "over") is None


def test_a_resync_snapshot_replaces_state_and_records_moves() -> None:
    book, _ = snapshot_book()
    book.take_changes()
    fresh = record(7, {"Bet365": [ml(2.3, 3.2, 3.4)], "Unibet": [ml(2.2, 3.3, 3.3)]})
    book.install_snapshot([fresh], received=300.0)
    assert book_view(book, 7) == record_view(fresh)
    move = book.movement(7, "Bet365", "ML", ML, "home")
    assert move is not None and (move.previous, move.direction, move.since) == (2.1, 1, 300.0)
    changes = book.take_changes()
    assert {(7, "Bet365", "ML"), (7, "Bet365", "Totals"), (7, "Pinnacle", "ML")} <= changes
    assert {(7, "Pinnacle"), (7, "Unibet"), (7, "Unibet", "ML")} <= changes


def test_score_and_status_messages() -> None:
    book, _ = snapshot_book()
    book.update_events(
        [
            parse_event(
                {
                    "id": 7,
                    "home": "Home FC",
                    "away": "Away FC",
                    "date": "2026-11-21T13:00:00Z",
                    "status": "live",
                    "sport": {"name": "Football", "slug": "football"},
                    "league": {"name": "L", "slug": "l"},
                    "clock": {"minute": 12, "playedSeconds": 720, "period": 1, "running": True},
                }
            )
        ],
        received=400.0,
    )
    state = book.event(7)
    assert state is not None and state.clock is not None
    assert (state.status, state.clock.minute, state.clock_received) == ("live", 12, 400.0)
    book.take_changes()
    score = {"home": 1, "away": 0, "periods": {"p1": {"home": 1, "away": 0}}}
    book.apply(message({"type": "score", "id": 7, "scores": score}))
    assert (state.scores.home, state.scores.periods["p1"]) == (1, (1, 0))
    assert book.take_changes() == {(7,)}
    book.apply(message({"type": "score", "id": 7, "scores": score}))
    assert book.take_changes() == set()
    book.apply(message({"type": "status", "id": 7, "status": "settled", "scores": score}))
    assert state.status == "settled" and state.clock is None
    assert book.take_changes() == {(7,)}


def test_scores_are_stale_after_a_reconnect_until_refreshed() -> None:
    book, _ = snapshot_book()
    book.take_changes()
    book.mark_scores_stale()
    state = book.event(7)
    assert state is not None and state.scores_stale
    assert book.take_changes() == {(7,)}
    book.apply(message({"type": "score", "id": 7, "scores": {"home": 0, "away": 0}}))
    assert not state.scores_stale
    assert book.take_changes() == {(7,)}


def rest_event(status: str, home: int, away: int) -> Event:
    return parse_event(
        {
            "id": 7,
            "home": "Home FC",
            "away": "Away FC",
            "date": "2026-11-21T13:00:00Z",
            "status": status,
            "sport": {"name": "Football", "slug": "football"},
            "league": {"name": "L", "slug": "l"},
            "scores": {"home": home, "away": away, "periods": {}},
        }
    )


def test_a_rest_answer_asked_before_the_feeds_score_does_not_roll_it_back() -> None:
    book, clock = snapshot_book()
    book.update_events([rest_event("live", 1, 2)])
    asked = clock.now
    clock.now += 1  # the feed's goal lands while the listing is in flight
    book.apply(message({"type": "score", "id": 7, "scores": {"home": 1, "away": 3}}))
    book.take_changes()
    book.update_events([rest_event("live", 1, 2)], requested=asked)
    state = book.event(7)
    assert state is not None and (state.scores.home, state.scores.away) == (1, 3)
    assert book.take_changes() == {(7,)}  # announced all the same: readers mirror the book


def test_a_rest_answer_asked_after_the_feeds_score_is_taken() -> None:
    book, clock = snapshot_book()
    book.apply(message({"type": "status", "id": 7, "status": "live", "scores": {"home": 1}}))
    clock.now += 2
    book.update_events([rest_event("settled", 2, 3)], requested=clock.now)
    state = book.event(7)
    assert state is not None and (state.status, state.scores.home, state.scores.away) == (
        "settled",
        2,
        3,
    )
    # An answer of unknown age never overrides what the feed set.
    book.apply(message({"type": "score", "id": 7, "scores": {"home": 4, "away": 3}}))
    book.update_events([rest_event("settled", 2, 3)], requested=None)
    assert (state.scores.home, state.scores.away) == (4, 3)


def test_an_event_known_only_from_the_feed_needs_its_header() -> None:
    book = OddsBook(clock=FakeClock())
    book.apply(updated(99, "Bet365", [ml(1.5, 2.6)], seq=1))
    assert book.missing_headers() == [99]
    assert book.price(99, "Bet365", "ML", ML, "away") == 2.6
    book.install_snapshot([record(99, {"Bet365": [ml(1.5, 2.6)]})])
    assert book.missing_headers() == []


def test_best_prices_across_bookmakers() -> None:
    book, _ = snapshot_book()
    assert book.best(7, "ML", ML) == {
        "home": (2.15, "Pinnacle"),
        "draw": (3.4, "Bet365"),
        "away": (3.5, "Bet365"),
    }
    assert book.quotes(7, "Totals", (2.5, None)) == {"Bet365": {"over": 1.9, "under": 1.95}}
    assert book.market_names(7) == ["ML", "Totals"]


def test_arbitrage_only_over_exhaustive_sides() -> None:
    markets = {"A": [ml(2.2, 1.9)], "B": [ml(1.8, 2.15)]}
    for sport, expected in (("basketball", True), ("football", False)):
        book = OddsBook(clock=FakeClock())
        book.install_snapshot([record(5, markets, sport=sport)])
        arb = book.arbitrage(5, "ML", ML)
        assert (arb is not None) is expected
        if arb is not None:
            assert [(leg.side, leg.bookmaker) for leg in arb.legs] == [("home", "A"), ("away", "B")]
            assert arb.profit_pct == pytest.approx((1 / (1 / 2.2 + 1 / 2.15) - 1) * 100)
            assert book.arbitrages(5, "ML") == [(ML, arb)]


def test_view_differences_explains_a_mismatch() -> None:
    book, _ = snapshot_book()
    other = record(7, {"Bet365": [ml(2.1, 3.5, 3.4)], "Pinnacle": [ml(2.15, 3.45, 3.3)]})
    problems = view_differences(record_view(other), book_view(book, 7))
    assert problems == [
        f"Bet365/Totals: expected None, got {book_view(book, 7)['Bet365']['Totals']}"
    ]


def test_remove_event() -> None:
    book, _ = snapshot_book()
    book.take_changes()
    book.remove_event(7)
    assert 7 not in book and len(book) == 0
    assert book.take_changes() == {(7,)}


def test_arbitrages_in_the_changed_markets() -> None:
    book = OddsBook(clock=FakeClock())
    book.install_snapshot(
        [
            record(5, {"A": [ml(2.0, 1.9)], "B": [ml(1.8, 2.0)]}, sport="tennis"),
            record(6, {"A": [ml(2.0, 1.9)]}, sport="tennis"),
        ]
    )
    assert book.arbitrages_in(book.take_changes()) == []
    book.apply(updated(5, "B", [ml(1.8, 2.25)], seq=20))
    book.apply(updated(6, "B", [ml(1.5, 1.95)], seq=21))
    found = book.arbitrages_in(book.take_changes())
    assert [(event_id, market, line) for event_id, market, line, _ in found] == [(5, "ML", ML)]
    legs = found[0][3].legs
    assert [(leg.side, leg.price, leg.bookmaker) for leg in legs] == [
        ("home", 2.0, "A"),
        ("away", 2.25, "B"),
    ]


def test_a_snapshot_fetched_in_bookmaker_chunks_keeps_every_chunk() -> None:
    book, _ = snapshot_book()
    first = record(7, {"Bet365": [ml(2.1, 3.5, 3.4)]})
    second = record(7, {"Unibet": [ml(2.0, 3.6, 3.5)]})
    book.install_snapshot([first, second])
    assert book.bookmakers(7) == ["Bet365", "Unibet"]
    state = book.event(7)
    assert state is not None and set(state.urls) == {"Bet365", "Unibet"}


def test_a_requested_event_missing_from_the_snapshot_loses_its_prices() -> None:
    book, _ = snapshot_book()
    book.take_changes()
    book.install_snapshot([], requested=[7])
    assert book.bookmakers(7) == []
    assert 7 in book
    assert (7, "Pinnacle", "ML") in book.take_changes()


def test_prices_for_an_unknown_event_do_not_report_its_scores() -> None:
    """An odds message knows nothing of the score: reporting the event's own key would make a
    reader show the empty scores of a fresh event as a real 0-0."""
    book = OddsBook(clock=FakeClock())
    book.apply(updated(8, "Bet365", [ml(2.2, 3.3, 3.4)], seq=10))
    assert book.take_changes() == {(8, "Bet365"), (8, "Bet365", "ML")}
    state = book.event(8)
    assert state is not None and state.status == "" and state.header is None
