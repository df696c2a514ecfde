"""The Event screen against the real built-in service: prices, best, flashes, markets and lines,
crests, stars, no coverage."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from oddstui import config
from oddstui.api.messages import OddsMessage
from oddstui.book.exchange import is_lay
from oddstui.tui.event.crest import Crest
from oddstui.tui.event.event_screen import EventScreen
from oddstui.tui.event.grid_views import GridColumnView
from oddstui.tui.event.market_panels import default_chosen
from oddstui.tui.event.price_grid import PriceGrid
from oddstui.tui.event.scoreboard import Scoreboard
from oddstui.tui.launch import build_app
from tests.tui.conftest import Service, start_service, wait_for
from tests.tui.screen_text import screen_text

KEYS = WIDE, NARROW = ("k-wide", "k-narrow")


@pytest.fixture(scope="module")
def busy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Service, str]]:
    """A busy world (600 price changes a second, which the desk follows while another process keeps
    a core busy) and two keys: the default bookmakers, and a single bookmaker selected through
    the API (the narrow one, for events it does not cover)."""
    accounts = tmp_path_factory.mktemp("accounts") / "accounts.toml"
    accounts.write_text(
        "".join(f'[[account]]\nkey = "{key}"\nplan = "paid"\nfeed = true\n' for key in KEYS)
    )
    service = start_service(
        "--seed", "5", "--speed", "5", "--updates-per-second", "600", "--accounts", str(accounts)
    )
    try:
        books = httpx.get(service.base_url + "/bookmakers", timeout=10).json()
        narrow = sorted(book["name"] for book in books if book.get("active", True))[-1]
        selected = httpx.put(
            service.base_url + "/bookmakers/selected/select",
            params={"apiKey": NARROW, "bookmakers": narrow},
            timeout=10,
        )
        selected.raise_for_status()
        yield service, narrow
    finally:
        service.stop()


def get(service: Service, path: str, key: str = WIDE, **params: Any) -> Any:
    response = httpx.get(service.base_url + path, params={**params, "apiKey": key}, timeout=10)
    response.raise_for_status()
    return response.json()


def busiest_live(service: Service) -> dict[str, Any]:
    """The live football event with the most bookmakers quoting ML, Spread and Totals, one in
    its first hour first (books stop quoting late in a match, and a test must not see it end)."""
    live = [e for e in get(service, "/events/live") if e["sport"]["slug"] == "football"]
    books = ",".join(get(service, "/bookmakers/selected")["bookmakers"])

    def early_then_busiest(event: dict[str, Any]) -> tuple[bool, int]:
        played = (event.get("clock") or {}).get("playedSeconds") or 0
        return played >= 3600, -(event.get("bookmakerCount") or 0)

    for event in sorted(live, key=early_then_busiest)[:8]:
        record = get(service, "/odds", eventId=event["id"], bookmakers=books)
        full = [
            name
            for name, markets in (record.get("bookmakers") or {}).items()
            if {"ML", "Spread", "Totals"} <= {m["name"] for m in markets if m.get("odds")}
        ]
        if len(full) >= 3:
            return event
    raise AssertionError("no live football event with ML, Spread and Totals at 3 bookmakers")


def app_for(service: Service, home: Path, key: str = WIDE, **settings: Any) -> Any:
    return build_app(
        service.base_url,
        key,
        config.Settings(**settings),
        watchlist_path=home / "watchlist.toml",
    )


async def open_event(app: Any, pilot: Any, event_id: int) -> EventScreen:
    await pilot.pause(0.2)
    app.open_event(event_id)
    await wait_for(
        lambda: isinstance(app.screen, EventScreen) and bool(app.screen.query(Scoreboard)),
        pilot,
        timeout=30,
    )
    await pilot.pause(0.1)
    screen: EventScreen = app.screen
    return screen


def side_keys(grid: PriceGrid) -> list[str]:
    """The stepped market's back sides' columns (an exchange in the book adds its lay columns
    after them; markets beside it, keyed `market|side`, follow)."""
    keys = [
        c.key for c in grid.columns if c.key not in ("book", "margin", "age") and "|" not in c.key
    ]
    backs = [key for key in keys if not is_lay(key)]
    assert keys[: len(backs)] == backs
    return backs


def check_best_marked(app: Any, screen: EventScreen, grid: PriceGrid) -> None:
    """The cells marked best are exactly the bookmakers at the book's best price per side."""
    assert screen.market is not None and screen.line is not None
    with app.hub.reading() as book:
        # non-empty: a market's grid has two sides or more
        for side in side_keys(grid):
            prices = {
                row: book.price(screen.event_id, row, screen.market, screen.line, side)
                for row in grid.row_keys
            }
            top = max(value for value in prices.values() if value is not None)
            best = {row for row in grid.row_keys if "best" in grid.cell(row, side).roles}
            assert best == {row for row, value in prices.items() if value == top}


async def test_prices_best_flashes_markets_lines_format_and_star(
    busy: tuple[Service, str], home: Path
) -> None:
    service, _ = busy
    event = busiest_live(service)
    # No commission: the best is then the highest raw price (with one, an exchange's back price
    # counts net of it, as tests/tui/event/test_exchange_grid.py checks).
    app = app_for(service, home, exchange_commission=0.0)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_event(app, pilot, event["id"])
        grid = screen.query_one(PriceGrid)
        await wait_for(lambda: len(grid.row_keys) >= 3, pilot, timeout=30)

        # Prices, the best of each side marked, margin and age columns.
        assert screen.market == "ML" and side_keys(grid) == ["home", "draw", "away"]
        with app.hub.reading():  # draw from the book as it is, and compare before it moves
            screen.redraw()
            check_best_marked(app, screen, grid)
        assert all(grid.cell_text(row, "margin").endswith("%") for row in grid.row_keys)
        assert all(grid.cell_text(row, "age")[-1:] in "smhd" for row in grid.row_keys)
        assert event["home"] in screen.query_one(Scoreboard).shown

        # A price move flashes ▲/▼ in its colour role, then settles on the app's tick.
        flashing: list[tuple[str, str]] = []

        def a_price_flashes() -> bool:
            for row in grid.row_keys:
                for side in side_keys(grid):
                    cell = grid.cell(row, side)
                    if cell.text[:1] in ("▲", "▼") and {"up", "down"} & set(cell.roles):
                        flashing.append((row, side))
                        return True
            return False

        await wait_for(a_price_flashes, pilot, timeout=30)
        row, side = flashing[0]
        arrow = grid.cell(row, side).text[:1]
        assert ("up" if arrow == "▲" else "down") in grid.cell(row, side).roles
        await wait_for(lambda: grid.cell(row, side).text[:1] not in ("▲", "▼"), pilot, timeout=30)

        # Markets (m / M) and lines ([ / ]) from the keyboard.
        # `m` goes to the book's next market: Spread, unless the book has it down for the
        # moment (a move it has not followed), when `m` goes on round until it is back.
        async def spread_shown() -> bool:
            before = screen.market
            await pilot.press("m")
            await wait_for(lambda: screen.market != before, pilot)
            if screen.market != "Spread":
                return False
            await wait_for(lambda: bool(grid.row_keys), pilot)
            return True

        deadline = time.monotonic() + 60
        while not await spread_shown():
            assert time.monotonic() < deadline, "the book's Spread market never came round"
        assert side_keys(grid) == ["home", "away"]
        first_line = screen.line
        assert first_line is not None and first_line[0] is not None
        await pilot.press("right_square_bracket")
        await wait_for(lambda: screen.line != first_line, pilot)
        assert screen.line is not None
        assert f"Line {screen.line[0]:+g}" in str(screen.query_one("#market-bar").render())
        await pilot.press("left_square_bracket")
        await wait_for(lambda: screen.line == first_line, pilot)
        await pilot.press("m")
        await wait_for(lambda: screen.market == "Totals", pilot)
        assert side_keys(grid) == ["over", "under"]
        await pilot.press("M", "M")
        await wait_for(lambda: screen.market == "ML", pilot)

        # The odds format from the settings, applied on the next tick.
        app.settings.odds_format = "american"

        def american() -> bool:
            texts = [grid.cell_text(r, "home").lstrip("▲▼ ") for r in grid.row_keys]
            quoted = [text for text in texts if text != "–"]
            return bool(quoted) and all(t[:1] in "+-" and t[1:].isdigit() for t in quoted)

        await wait_for(american, pilot, timeout=30)

        # `w` stars the event, saved at once.
        await pilot.press("w")
        await wait_for(lambda: app.hub.is_watched(event["id"]), pilot)
        assert str(event["id"]) in (home / "watchlist.toml").read_text()
        await wait_for(lambda: str(screen.query_one(".heading").render()).startswith("★"), pilot)


async def test_the_benchmarks_naive_grid_takes_every_feed_message(
    busy: tuple[Service, str], home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # benchmarks/tui_live.py compares the real grid with this one: it must see the feed, and
    # the desk's screen with a paint log must log its paints.
    monkeypatch.syspath_prepend(str(Path(__file__).parents[3] / "benchmarks"))
    from bench_event import LoggedEventScreen, NaiveEventScreen  # type: ignore[import-not-found]
    from naive_grid import NaiveGrid  # type: ignore[import-not-found]
    from paint_log import PaintLog  # type: ignore[import-not-found]

    service, _ = busy
    event = busiest_live(service)
    app = app_for(service, home)
    log = tmp_path / "paint.log"
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.2)
        app.push_screen(NaiveEventScreen(event["id"], PaintLog(str(log))))
        await wait_for(lambda: bool(app.screen.query(NaiveGrid)), pilot, timeout=30)
        grid = app.screen.query_one(NaiveGrid)
        await wait_for(lambda: grid._book is not None, pilot, timeout=30)
        # Every message of the event that the book applies from now on, seen around the grid's
        # own hook (under the feed's lock, as the feed applies them), and what the grid made of
        # each when it reached the app's loop.
        applied: list[OddsMessage] = []
        shown: dict[int, int] = {}  # id of an applied message -> rows rewritten by it (0 or 1)
        take = grid._take_message

        def take_and_count(message: OddsMessage) -> None:
            before = grid.messages_shown
            take(message)
            if any(message is seen for seen in applied):
                shown[id(message)] = grid.messages_shown - before

        def record_around(book: Any) -> None:
            inner = book.apply_odds

            def apply_odds(message: OddsMessage) -> None:
                if message.event_id == event["id"]:
                    applied.append(message)
                inner(message)

            book.apply_odds = apply_odds

        # The screen attaches the grid again when what it shows changes (a line moves in play):
        # the count starts again around the new attachment.
        attach = grid.attach

        def attach_and_record(book: Any, *args: Any) -> None:
            attach(book, *args)
            applied.clear()
            shown.clear()
            record_around(book)

        grid._take_message = take_and_count  # type: ignore[method-assign]
        grid.attach = attach_and_record  # type: ignore[method-assign]
        app.hub.read(record_around)

        def three_messages_shown() -> bool:
            return grid.messages_shown >= 3 and len(shown) >= 3

        try:
            await wait_for(three_messages_shown, pilot, timeout=60)
        except AssertionError as error:
            state = app.hub.status.state
            counts = f"{len(applied)} applied, {grid.messages_shown} shown, {len(shown)} taken"
            raise AssertionError(f"{error}: {counts}, feed {state}") from None
        app.hub.read(lambda book: grid.detach())  # no message is applied after this
        _, market, line = grid._target
        for_the_grid = [
            id(message)
            for message in applied
            if any(
                quote.name == market and any(entry.key == line for entry in quote.lines)
                for quote in message.markets
            )
        ]
        assert len(for_the_grid) >= 3
        # Each of them rewrote its row: none was dropped or merged.
        await wait_for(lambda: len(shown) == len(applied), pilot, timeout=30)
        assert [shown[key] for key in for_the_grid] == [1] * len(for_the_grid)
        assert sum(shown.values()) == len(for_the_grid)
        # Rows are the books quoting the market now: in play, sometimes only two.
        await wait_for(lambda: grid.row_count >= 2, pilot, timeout=30)
        # The naive grid logs a paint per message it shows (after the screen refreshes).
        await wait_for(lambda: log.read_text().count("paint ") >= 3, pilot, timeout=30)
        app.pop_screen()
        before = log.read_text().count("paint ")
        app.push_screen(LoggedEventScreen(event["id"], PaintLog(str(log))))
        await wait_for(lambda: log.read_text().count("paint ") >= before + 3, pilot, timeout=30)


async def test_crests_or_no_crest_and_literal_names(busy: tuple[Service, str], home: Path) -> None:
    service, _ = busy
    # Which matches are live follows the wall clock; one team in ten has no crest.
    candidates = [*get(service, "/events/live"), *get(service, "/events", sport="football")]
    without = None
    for event in candidates:
        logo = httpx.get(
            f"{service.base_url}/participants/{event['homeId']}/logo", params={"apiKey": WIDE}
        )
        if logo.status_code == 404:
            without = event
            break
    assert without is not None, "the world has participants without a crest"
    app = app_for(service, home)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_event(app, pilot, without["id"])
        crest_home = screen.query_one("#crest-home", Crest)
        crest_away = screen.query_one("#crest-away", Crest)
        await wait_for(
            lambda: not crest_home.has_class("-loading") and not crest_away.has_class("-loading"),
            pilot,
            timeout=30,
        )
        assert crest_home.has_class("-missing") and not crest_home.has_image
        shown = str(crest_home.render())
        assert "no crest" in shown
        away_logo = httpx.get(
            f"{service.base_url}/participants/{without['awayId']}/logo", params={"apiKey": WIDE}
        )
        assert crest_away.has_image == (away_logo.status_code == 200)

        # Team names with markup characters are shown as they are.
        events = get(service, "/events", sport="football", limit=500)
        hostile = next(e for e in events if "[" in e["home"] + e["away"])
        await pilot.press("escape")
        screen = await open_event(app, pilot, hostile["id"])
        board = screen.query_one(Scoreboard)
        await wait_for(lambda: hostile["home"] in board.shown, pilot, timeout=30)
        assert hostile["away"] in board.shown


async def test_an_event_no_selected_bookmaker_quotes_says_no_coverage(
    busy: tuple[Service, str], home: Path
) -> None:
    service, narrow = busy
    live = get(service, "/events/live", key=NARROW)
    uncovered = None
    for event in live:
        record = get(service, "/odds", key=NARROW, eventId=event["id"], bookmakers=narrow)
        if not record.get("bookmakers"):
            uncovered = event
            break
    assert uncovered is not None, f"some live event has no {narrow} prices"
    app = app_for(service, home, key=NARROW)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_event(app, pilot, uncovered["id"])
        notice = screen.query_one("#no-coverage")
        await wait_for(lambda: "No coverage" in str(notice.render()), pilot, timeout=30)
        assert notice.display and not screen.query_one(PriceGrid).display


async def test_a_wide_screen_shows_markets_side_by_side_edges_and_pins(
    busy: tuple[Service, str], home: Path
) -> None:
    service, _ = busy
    event = busiest_live(service)
    app = app_for(service, home)
    async with app.run_test(size=(200, 50)) as pilot:
        screen = await open_event(app, pilot, event["id"])
        grid = screen.query_one(PriceGrid)

        def beside() -> list[str]:
            return sorted({c.key.split("|")[0] for c in grid.columns if "|" in c.key})

        # ML stepped through, Spread and Totals (the main markets) beside it, in one grid.
        await wait_for(lambda: {"Spread", "Totals"} <= set(beside()), pilot, timeout=30)
        assert screen.market == "ML" and screen.panels is not None
        assert {view.market for view in screen.panels.beside} >= {"Spread", "Totals"}
        assert sum(c.width + 1 for c in grid.shown_columns) <= 200
        quoted = [
            row
            for row in grid.row_keys
            if grid.cell_text(row, "Totals|over").lstrip("▲▼ ")[:1].isdigit()
        ]
        assert quoted  # prices, under their market's heading
        assert "Totals" in " ".join(grid.groups.values())

        # `v`: each price's edge against the sharp book's fair price, cell by cell.
        await pilot.press("v")

        def edges() -> list[str]:
            texts = [grid.cell_text(row, "home").lstrip("▲▼ ") for row in grid.row_keys]
            return [text for text in texts if text != "–"]

        await wait_for(lambda: edges() and all(t.endswith("%") for t in edges()), pilot, timeout=30)
        assert "edge vs fair" in str(screen.query_one("#market-bar").render())
        await pilot.press("v")
        await wait_for(
            lambda: edges() and not any(t.endswith("%") for t in edges()), pilot, timeout=30
        )

        # `p` pins the market stepped to: kept in the settings file, shown first beside the
        # stepped market from then on (the last market in reading order is no main one).
        await pilot.press("M")
        await wait_for(lambda: screen.market not in (None, "ML"), pilot, timeout=30)
        pinned = screen.market
        assert pinned is not None and pinned not in default_chosen("football")
        await pilot.press("p")
        await wait_for(
            lambda: pinned in (config.load_settings().event_markets or []), pilot, timeout=30
        )
        await pilot.press("m")
        await wait_for(lambda: screen.market == "ML", pilot, timeout=30)
        await wait_for(lambda: pinned in beside(), pilot, timeout=30)


async def test_on_first_open_the_grid_lists_every_bookmaker_within_a_flush(
    busy: tuple[Service, str], home: Path
) -> None:
    """The grid once showed 3 of 12 bookmakers for seconds after opening (the feed's few, laid
    out, then the snapshot's): after every flush, each column is as tall as the rows, every
    row is on screen, and every bookmaker the book holds for the market is a row. (The race
    behind it is rare here; tests/tui/event/test_event_grid.py sets it up by hand.)"""
    service, _ = busy
    event = busiest_live(service)
    app = app_for(service, home)
    async with app.run_test(size=(200, 50)) as pilot:
        app.open_event(event["id"])  # at once: the first rows come while the grid is mounting
        await wait_for(
            lambda: isinstance(app.screen, EventScreen) and bool(app.screen.query(Scoreboard)),
            pilot,
        )
        screen: EventScreen = app.screen
        grid = screen.query_one(PriceGrid)
        await wait_for(lambda: len(grid.row_keys) >= 3, pilot, timeout=30)
        for _ in range(4):
            flushes = app.hub.flushes
            await wait_for(lambda before=flushes: app.hub.flushes > before, pilot, timeout=10)
            await pilot.pause()
            rows = grid.row_keys
            heights = {view.size.height for view in grid.query(GridColumnView) if view.display}
            assert heights == {len(rows)}
            text = screen_text(app)
            assert [name for name in rows if name not in text] == []
            with app.hub.reading() as book:
                screen.redraw()  # from the book as it is now
                state = book.event(screen.event_id)
                assert state is not None
                quoted = {
                    name for name, held in state.books.items() if screen.market in held.markets
                }
                assert quoted and quoted <= set(grid.row_keys)
