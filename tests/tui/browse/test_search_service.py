"""`/` searches the real service's events and opens the one chosen."""

from __future__ import annotations

from textual.widgets import OptionList

from oddstui.book.clean_text import fold
from oddstui.tui.browse.search import SearchModal
from oddstui.tui.event.event_screen import EventScreen
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, wait_for
from tests.tui.screen_text import screen_text


async def test_search_jumps_to_the_chosen_event(fast_service: Service) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY, with_feed=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(lambda: bool(app.hub.board.live_ids), pilot, timeout=30)
        # The match that kicked off last: the one least likely to end while the test runs.
        live = [app.hub.board.events[i] for i in app.hub.board.live_ids]
        target = max(live, key=lambda event: (event.start is not None, event.start, event.id))
        query = target.home

        await pilot.press("slash")
        assert isinstance(app.screen, SearchModal)
        modal = app.screen
        await pilot.press(*query[:2])
        await pilot.pause(0.5)
        assert "Type at least 3 characters" in screen_text(app)
        assert modal.query_one(OptionList).option_count == 0  # nothing sent below 3

        await pilot.press(*query[2:])
        await wait_for(lambda: modal.answered == query, pilot)
        options = modal.query_one(OptionList)
        assert options.option_count >= 1
        ids = [int(options.get_option_at_index(i).id or 0) for i in range(options.option_count)]
        # non-empty: option_count >= 1 asserted above
        for event_id in ids:
            found = modal.found[event_id]
            # Matched as the service matches, by the one fold (`Øst` finds `Ost` too).
            names = fold(f"{found.home} {found.away} {found.league.name}")
            assert all(word in names for word in fold(query).split()), (query, names)
        assert target.id in ids
        chosen = target.id
        await pilot.press("down", *["down"] * ids.index(chosen), "enter")
        await wait_for(lambda: isinstance(app.screen, EventScreen), pilot)
        assert isinstance(app.screen, EventScreen)
        assert app.screen.event_id == chosen
        await wait_for(lambda: app.hub.board.events[chosen].home in screen_text(app), pilot)


async def test_search_escape_cancels(fast_service: Service) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY, with_feed=False)
    async with app.run_test(size=(80, 24)) as pilot:
        start = app.screen
        await pilot.press("slash")
        assert isinstance(app.screen, SearchModal)
        await pilot.press("escape")
        assert app.screen is start
