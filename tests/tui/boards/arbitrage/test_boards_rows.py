"""The arbitrage board's model: merging SVC and LOCAL, vanishing, stable order, filters."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oddstui.api.models import ArbitrageBet, ArbitrageLeg, EventSummary, Named
from oddstui.book.arbitrage import Arbitrage, ArbLeg
from oddstui.tui.boards.arbitrage.arb_filter import ArbFilter
from oddstui.tui.boards.arbitrage.arb_rows import (
    LOCAL,
    SVC,
    VANISH_GRACE,
    ArbRow,
    ArbRows,
    LegView,
    row_key,
)
from oddstui.tui.boards.order import Rank, arrange


def service_arb(
    event_id: int,
    market: str,
    hdp: float | None,
    prices: tuple[float, float],
    books: tuple[str, str] = ("Bet365", "Pinnacle"),
) -> ArbitrageBet:
    legs = tuple(
        ArbitrageLeg(book, side, side.title(), price, None, None, None)
        for book, side, price in zip(books, ("over", "under"), prices, strict=True)
    )
    s = sum(1 / p for p in prices)
    return ArbitrageBet(
        id=f"{event_id}{market}",
        event_id=event_id,
        event=EventSummary("Home [bold]", "Away", None, Named("Football", "football"), None),
        implied_probability=s,
        profit_margin=(1 / s - 1) * 100,
        total_stake=100.0,
        updated_at=datetime(2026, 11, 21, 7, 0, tzinfo=UTC),
        market_name=market,
        market_hdp=hdp,
        legs=legs,
        optimal_stakes=(),
    )


def local_arb(
    prices: tuple[float, float], books: tuple[str, str] = ("Bwin", "Unibet")
) -> Arbitrage:
    legs = tuple(
        ArbLeg(side, price, book)
        for side, price, book in zip(("over", "under"), prices, books, strict=True)
    )
    return Arbitrage(legs, sum(1 / p for p in prices))


def test_service_and_local_merge_into_one_row_marked_both() -> None:
    rows = ArbRows()
    rows.set_service([service_arb(7, "Totals", 2.5, (2.1, 2.1))], now=0.0)
    key = row_key(7, "Totals", 2.5, None)
    assert rows.rows[key].source_label == "SVC"
    rows.set_local([(7, "Totals", (2.5, None), local_arb((2.2, 2.05)))], [(7, "Totals")], now=1.0)
    row = rows.rows[key]
    assert row.sources == {SVC, LOCAL} and row.source_label == "BOTH"
    # The feed's prices are shown: they are fresher than the service's answer.
    assert [leg.price for leg in row.legs] == [2.2, 2.05]
    assert row.profit_pct == pytest.approx((1 / (1 / 2.2 + 1 / 2.05) - 1) * 100)
    assert len(rows.rows) == 1


def test_local_only_row_loses_its_source_when_its_market_is_checked_again() -> None:
    rows = ArbRows()
    rows.set_local([(3, "ML", (None, None), local_arb((2.1, 2.1)))], [(3, "ML")], now=0.0)
    key = row_key(3, "ML", None, None)
    assert rows.rows[key].source_label == "LOCAL"
    # Another market of the same event checked: this row is untouched.
    rows.set_local([], [(3, "Totals")], now=1.0)
    assert rows.rows[key].vanished_at is None
    rows.set_local([], [(3, "ML")], now=2.0)
    assert rows.rows[key].vanished_at == 2.0 and rows.rows[key].source_label == "gone"
    assert rows.sweep(2.0 + VANISH_GRACE - 0.1) == []
    assert rows.sweep(2.0 + VANISH_GRACE) == [key]
    assert key not in rows.rows


def test_a_vanished_row_that_comes_back_is_current_again() -> None:
    rows = ArbRows()
    item = service_arb(5, "Totals", 3.0, (2.2, 2.2))
    rows.set_service([item], now=0.0)
    rows.set_service([], now=1.0)
    key = row_key(5, "Totals", 3.0, None)
    assert rows.rows[key].vanished_at == 1.0
    rows.set_service([item], now=2.0)
    assert rows.rows[key].vanished_at is None and rows.sweep(100.0) == []


def test_order_is_by_shown_profit_and_stable_for_ties() -> None:
    rows = ArbRows()
    rows.set_service(
        [
            service_arb(1, "Totals", 1.5, (2.10, 2.10)),
            service_arb(2, "Totals", 1.5, (2.10, 2.10)),
            service_arb(3, "Totals", 1.5, (2.50, 2.00)),
        ],
        now=0.0,
    )
    k1, k2, k3 = (row_key(i, "Totals", 1.5, None) for i in (1, 2, 3))
    ranks = {key: Rank(row.profit_pct) for key, row in rows.rows.items()}
    assert arrange(ranks, "profit", []) == [k3, k1, k2]
    # Equal profit: the current order wins, so the rows under the cursor stay put.
    assert arrange(ranks, "profit", [k3, k2, k1]) == [k3, k2, k1]


def test_service_rows_keep_each_legs_quote_time_the_label_and_the_start() -> None:
    item = service_arb(9, "Player Props", 0.5, (2.2, 2.2))
    quoted = datetime(2026, 11, 21, 6, 59, tzinfo=UTC)
    start = datetime(2026, 11, 21, 13, tzinfo=UTC)
    legs = (replace(item.legs[0], updated_at=quoted), item.legs[1])
    event = replace(item.event, date=start)
    rows = ArbRows()
    rows.set_service([replace(item, legs=legs, market_label="Kane", event=event)], now=0.0)
    row = rows.rows[row_key(9, "Player Props", 0.5, "Kane")]
    assert [leg.quoted for leg in row.legs] == [quoted.timestamp(), None]
    assert row.label == "Kane" and row.start == start.timestamp()


@pytest.mark.parametrize(
    ("field", "text", "reason"),
    [
        ("min_profit", "abc", "minimum profit must be a number"),
        ("min_profit", "-2", "minimum profit must be at least 0"),
        ("max_age", "0", "maximum leg age must be at least 1"),
        ("max_age", "inf", "maximum leg age must be a finite number"),
        ("sports", "football,,tennis", "sports: an empty name between commas"),
    ],
)
def test_filter_refuses_bad_values_with_a_reason(field: str, text: str, reason: str) -> None:
    good = ArbFilter().with_field("min_profit", "1.5")
    with pytest.raises(ValueError, match=reason):
        good.with_field(field, text)
    assert good.min_profit == 1.5


def test_filter_accepts_by_profit_sport_bookmakers_and_age() -> None:
    rows = ArbRows()
    rows.set_service([service_arb(1, "Totals", 1.5, (2.5, 2.0))], now=0.0)
    row = next(iter(rows.rows.values()))  # +11.1 %, legs at Bet365 and Pinnacle
    f = ArbFilter()
    assert f.accepts(row, ("Football", "football"), 10.0)
    assert not f.with_field("min_profit", "12").accepts(row, ("Football",), 10.0)
    assert f.with_field("sports", "FOOTBALL").accepts(row, ("Football", "football"), None)
    assert not f.with_field("sports", "tennis").accepts(row, ("Football", "football"), None)
    assert f.with_field("bookmakers", "bet365, pinnacle, bwin").accepts(row, (), None)
    assert not f.with_field("bookmakers", "bet365").accepts(row, (), None)
    assert not f.with_field("max_age", "30s").accepts(row, (), 31.0)
    assert f.with_field("max_age", "30s").accepts(row, (), 29.0)


def test_local_legs_name_their_market_and_line_on_the_board_and_the_ticket() -> None:
    from oddstui.tui.boards.arbitrage.arb_cells import leg_name, ticket_legs
    from oddstui.tui.boards.arbitrage.arb_quotes import read_leg_quotes

    rows = ArbRows()
    rows.set_local([(4, "Totals", (2.5, None), local_arb((2.2, 2.05)))], [(4, "Totals")], now=0.0)
    rows.set_local([(4, "Spread", (-1.5, None), local_arb((2.2, 2.05)))], [(4, "Spread")], now=0.0)
    totals = rows.rows[row_key(4, "Totals", 2.5, None)]
    assert [leg_name(totals, leg, None) for leg in totals.legs] == ["Over 2.5", "Under 2.5"]
    legs = ticket_legs(read_leg_quotes(None, totals, 10.0, 10.0), totals, None, now=10.0)
    assert [leg.label for leg in legs] == ["Totals Over 2.5", "Totals Under 2.5"]
    spread = rows.rows[row_key(4, "Spread", -1.5, None)]
    spread.home, spread.away = "Arsenal", "Spurs"
    spread.legs = tuple(
        replace(leg, side=side) for leg, side in zip(spread.legs, ("home", "away"), strict=True)
    )
    assert [leg_name(spread, leg, None) for leg in spread.legs] == ["Arsenal -1.5", "Spurs +1.5"]


def test_the_counts_add_up() -> None:
    from oddstui.tui.boards.arbitrage.arb_cells import arb_counts

    rows = ArbRows()
    rows.set_service([service_arb(i, "Totals", 2.5, (2.1, 2.1)) for i in range(1, 5)], now=0.0)
    rows.set_local([(1, "Totals", (2.5, None), local_arb((2.2, 2.05)))], [(1, "Totals")], now=0.0)
    rows.set_local([(9, "ML", (None, None), local_arb((2.2, 2.05)))], [(9, "ML")], now=0.0)
    rows.set_service([service_arb(i, "Totals", 2.5, (2.1, 2.1)) for i in range(1, 4)], now=1.0)
    shown = [row for row in rows.rows.values() if row.event_id != 3]  # one filtered out
    text = arb_counts(shown, total=len(rows.rows), suspects_hidden=0).plain
    assert text == "4 shown: 3 live (1 SVC · 1 LOCAL · 1 BOTH) + 1 gone · 1 filtered out"


def spread_row(second_book: str) -> ArbRow:
    """Spread -35.5 of Millbrook United v Lakeshore Wanderers: SingBet 2.683, `second_book` 1.62."""
    legs = (LegView("home", "SingBet", 2.683), LegView("away", second_book, 1.62))
    away = "Lakeshore Wanderers"
    return ArbRow(
        "k",
        1,
        "Spread",
        -35.5,
        None,
        legs,
        1 / 2.683 + 1 / 1.62,
        home="Millbrook United",
        away=away,
    )


def test_both_legs_keep_their_bookmaker_and_price_in_a_narrow_legs_column() -> None:
    from oddstui.tui.boards.arbitrage.arb_cells import legs_text

    row = spread_row("Pinnacle")
    full = legs_text(row, None, "decimal")
    assert full == "SingBet Millbrook United -35.5 2.683 │ Pinnacle Lakeshore Wanderers +35.5 1.62"
    assert legs_text(row, None, "decimal", len(full)) == full
    short = legs_text(row, None, "decimal", 38)
    assert len(short) <= 38
    first, second = short.split(" │ ")
    assert first.startswith("SingBet ") and first.endswith(" 2.683")
    assert second.startswith("Pinnacle ") and second.endswith(" 1.62")
    # With a little more room, the names give way before their lines.
    first, second = legs_text(row, None, "decimal", 56).split(" │ ")
    assert first.endswith("… -35.5 2.683") and second.endswith("… +35.5 1.62")


def test_a_long_bookmaker_name_gives_way_before_any_price() -> None:
    from oddstui.tui.boards.arbitrage.arb_cells import legs_text

    row = spread_row("Betfair Exchange")
    for width in range(20, 90):
        text = legs_text(row, None, "decimal", width)
        assert len(text) <= width
        first, second = text.split(" │ ")
        assert first.endswith(" 2.683") and second.endswith(" 1.62"), (width, text)
        assert first[0] == "S" and second[0] == "B"
    # Every book whole before any leg says what it backs; then each gets a fair share.
    assert legs_text(row, None, "decimal", 38) == "SingBet 2.683 │ Betfair Exchange 1.62"
    assert legs_text(row, None, "decimal", 44) == "SingBet M… 2.683 │ Betfair Exchange La… 1.62"


@given(
    needs=st.lists(st.integers(min_value=0, max_value=80), min_size=1, max_size=4),
    room=st.integers(min_value=0, max_value=200),
)
def test_fair_shares_never_exceed_the_room_or_a_need(needs: list[int], room: int) -> None:
    from oddstui.tui.boards.arbitrage.arb_cells import fair_shares

    shares = fair_shares(needs, room)
    assert sum(shares) <= room
    assert all(0 <= share <= need for share, need in zip(shares, needs, strict=True))
    if sum(needs) <= room:
        assert shares == needs
    else:  # nobody cut gets less than an equal split of what the others left
        cut = [share for share, need in zip(shares, needs, strict=True) if share < need]
        assert max(cut) - min(cut) <= 1


def test_an_exchange_leg_counts_net_of_the_traders_commission() -> None:
    from oddstui.book.exchange import net_back

    rows = ArbRows(commission=0.05)
    exchange = ("Bet365", "Betfair Exchange")
    # 2.20 and 2.10 make 3.4 % before commission; at 5 % the exchange's 2.10 pays 2.045.
    rows.set_service([service_arb(1, "Totals", 2.5, (2.20, 2.10), exchange)], now=0.0)
    row = rows.rows[row_key(1, "Totals", 2.5, None)]
    paid = net_back(2.10, 0.05)
    assert paid == pytest.approx(2.045)
    assert row.profit_pct == pytest.approx((1 / (1 / 2.20 + 1 / paid) - 1) * 100)
    assert [leg.price for leg in row.legs] == [2.20, 2.10]  # the price the exchange shows
    # 2.05 and 2.00 make 1.2 % before commission, and none after: not an arbitrage.
    rows.set_local(
        [(2, "Totals", (2.5, None), local_arb((2.05, 2.00), ("Bwin", "Betfair Exchange")))],
        [(2, "Totals")],
        now=0.0,
    )
    assert row_key(2, "Totals", 2.5, None) not in rows.rows
    # Without commission, it is one.
    free = ArbRows()
    free.set_local(
        [(2, "Totals", (2.5, None), local_arb((2.05, 2.00), ("Bwin", "Betfair Exchange")))],
        [(2, "Totals")],
        now=0.0,
    )
    assert free.rows[row_key(2, "Totals", 2.5, None)].profit_pct > 1.0


def test_the_ticket_stakes_an_exchange_leg_on_what_it_pays() -> None:
    from oddstui.tui.boards.arbitrage.arb_cells import ticket_legs
    from oddstui.tui.boards.arbitrage.arb_quotes import read_leg_quotes

    rows = ArbRows(commission=0.05)
    rows.set_service(
        [service_arb(1, "Totals", 2.5, (2.20, 2.10), ("Bet365", "Betfair Exchange"))], now=0.0
    )
    row = rows.rows[row_key(1, "Totals", 2.5, None)]
    legs = ticket_legs(read_leg_quotes(None, row, 0.0, 0.0), row, None, now=0.0)
    assert [leg.price for leg in legs] == [2.20, pytest.approx(2.045)]
    assert [leg.commission for leg in legs] == [0.0, 0.05]
