"""Boards a trader can trust (issue 21, part 5), against the real built-in service: counts that
include the find filter, `F` that takes the keys typed after it, an order that does not stay
wrong, a vanished highlighted row that keeps the cursor, every column a narrow board hides
announced, and a Dropping board sorted, labelled and filtered by drop."""

from __future__ import annotations

import re
import time
from typing import Any

from textual import events
from textual.widgets import Input

from oddstui.tui.boards.arbitrage.arb_rows import VANISH_GRACE, row_key
from oddstui.tui.boards.arbitrage.arb_screen import ArbitrageScreen
from oddstui.tui.boards.dropping import DroppingOddsScreen, drop_row_key
from oddstui.tui.desk.state import LIVE, PENDING
from oddstui.tui.kit.columns import fold
from oddstui.tui.kit.marks import SUSPECT_MARK
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.kit.service_clock import hub_service_time
from oddstui.tui.kit.table_filter import TableFilter
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, wait_for
from tests.tui.screen_text import screen_text


def board(app: Any) -> tuple[Any, PatchTable]:
    return app.screen, app.screen.query_one(PatchTable)


def header_line(app: Any, table: PatchTable) -> str:
    first = table.specs[0].label
    lines = screen_text(app).splitlines()
    return next((line for line in lines if line.split()[:1] == [first]), "")


def a_word_of_some_events(table: PatchTable) -> str:
    """A plain word in some rows' Event cells but not in all of them."""
    titles = [table.cell_text(key, "event") for key in table.row_keys]
    for title in titles:
        for word in title.split():
            if re.fullmatch(r"[A-Za-z]{4,}", word) and sum(word in t for t in titles) < len(titles):
                return word
    raise AssertionError(f"no word to find among {titles}")


async def test_f_takes_the_keys_typed_right_after_it_and_the_counts_follow_the_find(
    fast_service: Service,
) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="arbitrage", with_feed=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, table = board(app)
        assert isinstance(screen, ArbitrageScreen)
        screen.hide_suspects = False  # every row counted as shown or filtered out
        await wait_for(lambda: table.row_count > 5, pilot, timeout=30)
        word = a_word_of_some_events(table)
        # A burst, as a terminal sends it: the keys after F queue before the filter has focus.
        for key in ["F", *word]:
            app.post_message(events.Key(key, key))
        finder = screen.query_one(TableFilter)
        await wait_for(lambda: finder.value == word, pilot)
        assert app.focused is finder and app.screen is screen, "no key went to the board"
        assert not screen.paused
        assert any(line.strip() == word for line in screen_text(app).splitlines()), "visible"
        rows = screen.arbs.rows

        def counted() -> bool:
            found = table.row_count
            out = len(rows) - found - screen.suspects_hidden
            summary = screen.summary().plain
            return 0 < found < len(rows) and (
                summary.startswith(f"{found} shown") and f"{out} filtered out" in summary
            )

        await wait_for(counted, pilot)
        # Found in any shown column, case and accents ignored (a leg or a league may hold it).
        # non-empty: counted() waited for rows found
        assert all(
            fold(word) in fold(" ".join(table.cell_text(key, c) for c in table.shown_columns()))
            for key in table.row_keys
        )
        await pilot.press("escape")  # the find cleared: the counts with it
        await wait_for(lambda: "filtered out" not in screen.summary().plain, pilot)
        assert screen.summary().plain.startswith(f"{table.row_count} shown")


async def test_a_row_that_moved_between_sorts_takes_its_place_without_another_change(
    fast_service: Service,
) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="arbitrage", with_feed=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen, table = board(app)
        assert isinstance(screen, ArbitrageScreen)
        screen.hide_suspects = False
        await wait_for(lambda: table.row_count > 5 and not screen.order_pending, pilot, 30)
        screen._next_fetch = time.monotonic() + 600  # no refetch puts the old price back
        await wait_for(lambda: not screen._fetching, pilot, timeout=30)  # nor one under way
        rows = screen.arbs.rows
        live = [key for key in table.row_keys if rows[key].vanished_at is None]
        last, top = live[-1], live[0]
        # The last row's price moves to the best profit right after a sort: the draw patches it
        # in place (not due), and nothing else changes after it.
        rows[last].implied = rows[top].implied * 0.99
        screen._sorted_at = time.monotonic()
        screen.arbs._dirty.add(last)
        screen.show_rows()
        assert screen.order_pending or table.row_keys[0] == last
        await wait_for(lambda: table.row_keys[0] == last and not screen.order_pending, pilot, 30)
        profits = [round(rows[key].profit_pct, 2) for key in table.row_keys]
        assert profits[: len(live)] == sorted(profits[: len(live)], reverse=True)


async def test_a_vanished_highlighted_row_keeps_the_cursor_dimmed_until_the_trader_moves(
    fast_service: Service,
) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="arbitrage", with_feed=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen, table = board(app)
        assert isinstance(screen, ArbitrageScreen)
        screen.hide_suspects = False
        await wait_for(lambda: table.row_count > 5 and screen.bookmakers, pilot, timeout=30)
        screen._next_fetch = time.monotonic() + 600  # the next answer is the one given below
        # A fetch already under way lands first: its rows would move the highlighted one.
        await wait_for(lambda: not screen._fetching, pilot, timeout=30)
        await pilot.press("j", "j")
        # The cursor follows its row, so an order due from the last answer may have carried it
        # anywhere: the row it is on now, where it is now, is what must hold.
        held, index = table.highlighted_key(), table.cursor_row
        assert held is not None and table.row_keys[index] == held
        # The service's answer now, without the highlighted arbitrage: it vanished.
        items = await app.hub.api.arbitrage_bets(
            screen.bookmakers or [], limit=500, include_event_details=True
        )
        assert items
        rest = [
            item
            for item in items
            if row_key(item.event_id, item.market_name, item.market_hdp, item.market_label) != held
        ]
        screen.arbs.set_service(rest, app.hub.now())
        screen.show_rows()
        went = screen.arbs.rows[held].vanished_at
        assert went is not None

        def past_the_grace() -> bool:
            # Other vanished rows are swept after the grace; the highlighted one stays put.
            assert table.highlighted_key() == held and table.cursor_row == index
            return app.hub.now() > went + VANISH_GRACE + 2

        await wait_for(past_the_grace, pilot, timeout=30)
        assert held in screen.arbs.rows
        cell = table.shown[held]["event"]
        assert any("strike" in str(span.style) for span in cell.spans), "dimmed, struck through"
        await pilot.press("j")  # the trader moves on: it goes
        await wait_for(lambda: held not in screen.arbs.rows, pilot, timeout=30)
        assert table.highlighted_key() != held


async def test_narrow_boards_keep_what_an_arbitrage_is_and_say_how_many_columns_they_hid(
    fast_service: Service,
) -> None:
    for mode in ("arbitrage", "value", "dropping"):
        app = build_app(fast_service.base_url, DEMO_KEY, start_mode=mode, with_feed=False)
        async with app.run_test(size=(80, 24)) as pilot:
            screen, table = board(app)

            def announced(app: Any = app, table: PatchTable = table) -> bool:
                hidden = len(table.specs) - len(table.shown_columns())
                line = header_line(app, table)
                return table.row_count > 1 and hidden > 0 and f"+{hidden} more ›" in line

            await wait_for(announced, pilot, timeout=30)
            assert screen_text(app).count(f"{SUSPECT_MARK} hidden") <= 1
            if mode == "arbitrage":
                assert {"profit", "event", "market", "legs"} <= set(table.shown_columns())
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="arbitrage", with_feed=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen, table = board(app)
        await wait_for(lambda: table.row_count > 1, pilot, timeout=30)
        assert len(table.shown_columns()) == len(table.specs)
        assert "more ›" not in header_line(app, table)


async def submit(pilot: Any, screen: Any, name: str, text: str) -> None:
    field = screen.query_one(f"#filter-{name}", Input)
    field.focus()
    field.value = text
    await pilot.press("enter")


async def test_the_dropping_board_by_drop_live_or_pre_match_by_bookmaker_and_one_page(
    fast_service: Service,
) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="dropping")
    async with app.run_test(size=(120, 40)) as pilot:
        screen, table = board(app)
        assert isinstance(screen, DroppingOddsScreen)
        await wait_for(lambda: screen.loaded_at is not None and table.row_count > 5, pilot, 30)
        assert " · by drop" in screen.summary().plain and "by profit" not in screen.summary().plain
        drops = [float(table.cell_text(key, "drop").rstrip("%")) for key in table.row_keys]
        assert drops == sorted(drops, reverse=True)
        events = app.hub.board.events

        def status_of(key: str) -> str | None:
            event = events.get(int(key.split("|", 1)[0]))
            return None if event is None else event.status

        # A page of 200 holds live and pre-match rows however old the shared world is (a page
        # of 50 can be all in play: then the live filter has nothing to hide).
        fetched = screen.loaded_at
        await submit(pilot, screen, "limit", "200")
        await wait_for(lambda: screen.loaded_at != fetched and screen.limit == 200, pilot, 60)
        for word, live in (("live", True), ("pre", False)):
            await submit(pilot, screen, "status", word)

            def filtered(live: bool = live) -> bool:
                statuses = [status_of(key) for key in table.row_keys]
                known = [status for status in statuses if status is not None]
                return bool(screen.filtered_out) and all((s == LIVE) == live for s in known)

            await wait_for(filtered, pilot, timeout=60)  # a loaded machine slows the board
            assert f"{screen.filtered_out} filtered out" in screen.summary().plain
            if live:
                await _the_next_answer_shows_no_row_the_filter_hid(pilot, screen, table)
        await submit(pilot, screen, "status", "all")
        await submit(pilot, screen, "books", "Pinnacle")

        def quoted_at_pinnacle() -> bool:
            keys = table.row_keys
            if not keys or not screen.filtered_out:
                return False

            def read(book: Any) -> bool:
                return all(
                    book.market(int(key.split("|")[0]), "Pinnacle", key.split("|")[1]) is not None
                    for key in keys
                )

            return bool(app.hub.read(read))

        await wait_for(quoted_at_pinnacle, pilot, timeout=30)
        await submit(pilot, screen, "books", "")
        await submit(pilot, screen, "limit", "10")
        for _ in range(3):  # refetches move rows off the page: gone rows never overfill it
            fetched = screen.loaded_at
            await pilot.press("escape", "u")
            await wait_for(
                lambda at=fetched: screen.loaded_at != at and screen.limit == 10, pilot, timeout=60
            )
            assert table.row_count <= 10
            shown = int(screen.summary().plain.split(" shown")[0].split()[-1])
            assert 0 < shown <= 10


async def _the_next_answer_shows_no_row_the_filter_hid(
    pilot: Any, screen: DroppingOddsScreen, table: PatchTable
) -> None:
    """Under the live filter, the next answer does not bring back the pre-match rows the filter
    hid as dimmed "gone" rows (it did: the last answer's rows the filter hid were "gone")."""
    starts = {
        drop_row_key(item): item.event.date.timestamp()
        for item in screen.items
        if item.event is not None and item.event.date is not None
    }
    hidden = starts.keys() - set(table.row_keys)
    assert hidden, "the live filter hid no row of the page"
    fetched = screen.loaded_at
    await pilot.press("escape", "u")
    await wait_for(lambda: screen.loaded_at != fetched, pilot, timeout=60)
    now = hub_service_time(screen.hub)
    events = screen.hub.board.events

    def started(key: str) -> bool:
        event = events.get(int(key.split("|", 1)[0]))
        return event.status != PENDING if event is not None else starts[key] <= now

    back = [key for key in table.row_keys if key in hidden]
    # may be empty: no hidden match may have kicked off since; the hidden rows are required above
    assert all(started(key) for key in back), [key for key in back if not started(key)]
