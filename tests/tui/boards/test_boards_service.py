"""The trading boards against the real built-in service: arbitrage, value bets, dropping odds."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from oddstui.book.exchange import is_exchange
from oddstui.book.value import kelly_stake
from oddstui.tui.boards.arbitrage.arb_rows import LOCAL, SVC
from oddstui.tui.boards.arbitrage.arb_screen import ArbitrageScreen
from oddstui.tui.boards.dropping import FORBIDDEN_TEXT, PAGE_SIZE, DroppingOddsScreen
from oddstui.tui.boards.value.value_screen import ValueBetsScreen
from oddstui.tui.kit.marks import SUSPECT_MARK
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.kit.prices import price_text
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, start_service, wait_for
from tests.tui.screen_text import screen_text


def profit_of(cell: str) -> float:
    return float(cell.removeprefix(SUSPECT_MARK).strip().rstrip("%"))


@pytest.mark.timeout(240)  # two waits on the live world, each up to a minute under load
async def test_arbitrage_board_merges_service_and_feed_sorted_by_profit(
    fast_service: Service,
) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="arbitrage")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, ArbitrageScreen)
        screen.hide_suspects = False  # every row, suspect or not: not what this test is about
        table = screen.query_one(PatchTable)

        def both_sources_shown() -> bool:
            labels = {table.cell_text(key, "source") for key in table.row_keys}
            return bool(labels & {"SVC", "BOTH"} and labels & {"LOCAL", "BOTH"})

        # The desk's own scan needs the feed's prices: a loaded machine may take a minute.
        await wait_for(both_sources_shown, pilot, timeout=60)

        # Rows are re-sorted by profit every few seconds (prices patch in place in between).
        def sorted_by_profit() -> bool:
            live = [key for key in table.row_keys if screen.arbs.rows[key].vanished_at is None]
            profits = [profit_of(table.cell_text(key, "profit")) for key in live]
            return bool(profits) and profits == sorted(profits, reverse=True)

        # Judged at the moment of each full sort: between sorts, prices patch in place and a
        # busy feed may never leave the board sorted at the instant a poll looks.
        sorts: list[bool] = []
        arrange = screen.arrange_table

        def arrange_and_judge(table: Any, ranks: Any, *, force: bool, before: Any = None) -> None:
            due = screen.sort_due(force)
            arrange(table, ranks, force=force, before=before)
            if due:
                sorts.append(sorted_by_profit())

        screen.arrange_table = arrange_and_judge  # type: ignore[method-assign]
        await wait_for(lambda: len(sorts) >= 2, pilot, timeout=30)
        screen.arrange_table = arrange  # type: ignore[method-assign]
        assert all(sorts), sorts
        keys = table.row_keys
        assert keys
        for key in keys:
            label = table.cell_text(key, "source")
            sources = screen.arbs.rows[key].sources
            assert (label == "SVC") == (sources == {SVC})
            assert (label == "LOCAL") == (sources == {LOCAL})
            assert (label == "BOTH") == (sources == {SVC, LOCAL})
            assert label.startswith("gone") == (not sources)
        for key in keys[:20]:
            row = screen.arbs.rows[key]
            s = sum(1 / leg.paid for leg in row.legs)  # exchanges net of commission
            assert profit_of(table.cell_text(key, "profit")) == pytest.approx(
                (1 / s - 1) * 100, abs=0.006
            )
            # Each leg keeps its price whole and its bookmaker, shortened ("Pinn…") only when
            # the legs do not fit even without what they back (the line under the table has
            # them whole).
            segments = table.cell_text(key, "legs").split(" │ ")
            assert len(segments) == len(row.legs)
            for leg, segment in zip(row.legs, segments, strict=True):
                assert segment.endswith(" " + price_text(leg.price, "decimal"))
                assert leg.bookmaker.startswith(segment.split(" ")[0].removesuffix("…"))
                rate = app.settings.exchange_commission if is_exchange(leg.bookmaker) else 0.0
                assert leg.commission == rate
        assert "profit % = (1/S - 1)" in screen_text(app)

        # The cursor stays on its arbitrage when the order changes.
        table.focus()
        for _ in range(min(3, table.row_count - 1)):
            await pilot.press("down")  # the trader's own choice: the board pins it
        held = table.highlighted_key()
        for _ in range(10):
            await pilot.pause(0.3)
            row = screen.arbs.rows.get(held)
            if row is None or row.vanished_at is not None:
                break  # it went, below the live rows: the cursor stays at its index
            assert table.highlighted_key() == held


async def test_arbitrage_filter_refuses_bad_input_and_keeps_the_last_good_one(
    fast_service: Service,
) -> None:
    # The service's arbitrages are enough here: no feed, so the test stays light.
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="arbitrage", with_feed=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, ArbitrageScreen)
        table = screen.query_one(PatchTable)
        await wait_for(lambda: table.row_count > 3, pilot, timeout=20)
        profits = sorted(row.profit_pct for row in screen.arbs.rows.values())
        floor = round(profits[len(profits) // 2], 1)  # about half the rows pass
        await pilot.press("f", *str(floor))
        assert screen.filter.min_profit == floor

        def only_above_floor() -> bool:
            shown = [profit_of(table.cell_text(key, "profit")) for key in table.row_keys]
            return bool(shown) and all(profit >= floor - 0.005 for profit in shown)

        await wait_for(only_above_floor, pilot)

        await pilot.press("x")  # "<floor>x" is refused
        await pilot.pause(0.1)
        assert screen.filter.min_profit == floor
        assert "minimum profit must be a number" in screen_text(app)
        assert "keeping the last good filter" in screen_text(app)
        await pilot.press("backspace")
        await pilot.pause(0.1)
        assert "minimum profit must be a number" not in screen_text(app)

        await pilot.press("escape", "f", "tab", "tab", *"nosuchbook")  # bookmakers filter
        assert screen.filter.bookmakers == frozenset({"nosuchbook"})
        await wait_for(lambda: table.row_count == 0, pilot)
        assert "No arbitrage passes the filters" in screen_text(app)


async def until_a_bookmaker_has_value_bets(
    screen: ValueBetsScreen, table: PatchTable, pilot
) -> None:
    """Not every bookmaker has value bets at every moment: move on (`b`) until one does."""
    for _ in range(12):
        await wait_for(lambda: screen.loaded_at is not None and not screen._fetching, pilot)
        if table.row_count:
            break
        loaded = screen.loaded_at
        await pilot.press("b")
        await wait_for(
            lambda loaded=loaded: screen.loaded_at != loaded and not screen._fetching, pilot
        )
    assert table.row_count > 0, "some selected bookmaker has value bets"


async def test_value_bets_show_ev_fair_price_and_kelly(fast_service: Service) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="value", with_feed=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, ValueBetsScreen)
        screen.hide_suspects = False  # every row, suspect or not: not what this test is about
        table = screen.query_one(PatchTable)
        await until_a_bookmaker_has_value_bets(screen, table, pilot)
        first = screen.items[0]
        assert screen.bookmaker == first.bookmaker
        key = first.id
        ev = table.cell_text(key, "ev")
        assert ev.removeprefix(f"{SUSPECT_MARK} ") == f"{first.expected_value:+.2f}%"
        assert ev.startswith(SUSPECT_MARK) == (first.expected_value > screen.suspect_profit)
        price = first.bookmaker_prices[first.bet_side]
        fair = first.market_prices[first.bet_side]
        expected = kelly_stake(1 / fair, price, screen.bankroll, screen.fraction, screen.cap)
        assert table.cell_text(key, "kelly") == f"{expected:.2f}"
        assert table.cell_text(key, "method") == "service"
        evs = [profit_of(table.cell_text(k, "ev")) for k in table.row_keys]
        assert evs == sorted(evs, reverse=True)

        # A bad bankroll is refused; the last good one stays.
        bankroll = screen.bankroll
        screen.query_one("#filter-bankroll").focus()
        await pilot.press("end", "x")
        await pilot.pause(0.1)
        assert screen.bankroll == bankroll
        assert "bankroll must be a number" in screen_text(app)

        # `b` moves to the next bookmaker of the account and reloads.
        before, loaded = screen.bookmaker, screen.loaded_at
        await pilot.press("escape", "b")
        await wait_for(lambda: screen.loaded_at != loaded and not screen._fetching, pilot)
        assert screen.bookmaker != before
        assert all(item.bookmaker == screen.bookmaker for item in screen.items)
        # Another bookmaker is another question: the last one's rows are not "gone".
        count = len(screen.items)
        assert f"{screen.bookmaker} · {count} shown: {count} live + 0 gone" in screen_text(app)


async def test_dropping_odds_windows_and_pages(fast_service: Service) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="dropping", with_feed=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, DroppingOddsScreen)
        table = screen.query_one(PatchTable)
        await until_a_bookmaker_has_value_bets(screen, table, pilot)
        first = screen.items[0]
        key = table.row_keys[0]
        assert table.cell_text(key, "drop") == f"{first.drop_since_opening:.2f}%"
        assert "window opening · page 1" in screen_text(app)
        await pilot.press("t")
        await wait_for(lambda: "window 12h · page 1" in screen_text(app), pilot, timeout=20)
        assert screen.query_params()["time_window"] == "12h"
        if len(screen.items) == PAGE_SIZE:
            page_one = list(screen.items)
            await pilot.press("n")
            await wait_for(lambda: screen.items != page_one and screen.page == 2, pilot, timeout=20)
            await pilot.press("left_square_bracket")
            await wait_for(lambda: screen.page == 1 and not screen._fetching, pilot, timeout=20)
        # An unknown market is refused with the reason; the query keeps the last good markets.
        screen.query_one("#filter-markets").focus()
        await pilot.press(*"Totals", "enter")
        await wait_for(lambda: screen.markets == ("Totals",), pilot, timeout=20)
        await pilot.press("f", "tab", "tab", "end", *",Bogus", "enter")
        await pilot.pause(0.1)
        assert screen.markets == ("Totals",)
        assert "unknown market 'bogus'" in screen_text(app)
        await wait_for(
            lambda: bool(screen.items) and all(i.market_name == "Totals" for i in screen.items),
            pilot,
            timeout=20,
        )


@pytest.fixture(scope="module")
def free_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    accounts = Path(tmp_path_factory.mktemp("accounts")) / "accounts.toml"
    accounts.write_text('[[account]]\nkey = "k-free"\nplan = "free"\nfeed = true\n')
    service = start_service("--accounts", str(accounts), "--seed", "3")
    yield service
    service.stop()


async def test_dropping_odds_on_a_free_plan_is_explained(free_service: Service) -> None:
    app = build_app(free_service.base_url, "k-free", start_mode="dropping", with_feed=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, DroppingOddsScreen)
        await wait_for(lambda: screen.load_error != "", pilot)
        assert screen.load_error == FORBIDDEN_TEXT
        text = " ".join(screen_text(app).split())
        assert "Dropping odds are only available on paid plans." in text
        assert not screen.query_one(PatchTable).display
