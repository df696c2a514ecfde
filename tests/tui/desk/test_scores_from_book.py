"""Scores and status come from the feed's book alone: REST answers go into the book, and the
board mirrors what the book holds (against the real built-in service)."""

from __future__ import annotations

import dataclasses
import math

from oddstui.api.models import Scores
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, wait_for


async def test_the_boards_scores_and_status_are_the_books(fast_service: Service) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="live")
    async with app.run_test(size=(120, 40)) as pilot:
        hub = app.hub
        board = hub.board
        await wait_for(lambda: hub.live_loaded and bool(board.live_ids), pilot, timeout=20)

        def scored_on_the_feed() -> int | None:
            """A listed live event whose score the feed has set."""
            with hub.reading() as book:
                assert book is not None
                for event_id in sorted(board.live_ids):
                    state = book.event(event_id)
                    if state is not None and state.scores_received > -math.inf:
                        return event_id
            return None

        await wait_for(scored_on_the_feed, pilot, timeout=30)
        event_id = scored_on_the_feed()
        assert event_id is not None

        # A REST answer of unknown age (a search result, say) with another score and status
        # does not change what the board shows: the feed's score is newer.
        answer = await hub.api.event(event_id)
        stale = dataclasses.replace(answer, status="settled", scores=Scores(99, 98, {}))
        hub.put_events([stale], None)
        shown = board.events[event_id]
        assert (shown.score_home, shown.score_away, shown.status) != (99, 98, "settled")
        with hub.reading() as book:
            assert book is not None
            state = book.event(event_id)
            assert state is not None and (state.scores.home, state.scores.away) != (99, 98)

        # After a flush, every event on the board shows the book's scores and status.
        def board_mirrors_the_book() -> bool:
            hub.flush()
            with hub.reading() as book:
                assert book is not None
                for view in board.events.values():
                    state = book.event(view.id)
                    if state is None or state.scores_stale or not state.status:
                        continue
                    held = (state.scores.home, state.scores.away, state.status)
                    if (view.score_home, view.score_away, view.status) != held:
                        return False
            return True

        await wait_for(board_mirrors_the_book, pilot)
        assert len(board.events) > 5
