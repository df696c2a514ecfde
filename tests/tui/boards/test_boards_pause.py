"""Pause holds every data source of a REST board (value bets, dropping odds; the arbitrage
board's own test is in arbitrage/test_boards_stable.py), against the real built-in service: an
answer that comes while paused, a redraw (a modal closing, a sort) and an export leave the rows
exactly as they were shown at the pause; `p` again takes the held answer at once."""

from __future__ import annotations

from typing import Any

import pytest

from oddstui.tui.boards.rest_board import RestBoardScreen
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, wait_for

#: Export fields that count the seconds up to the export itself (ages), not data held.
AGES = ("ageSeconds", "movedSecondsAgo")


def records(screen: Any) -> list[str]:
    """The board's export, its ages left out, in a comparable order."""
    return sorted(
        repr({k: v for k, v in record.items() if k not in AGES})
        for record in screen.export_records()
    )


def shown(table: PatchTable) -> list[tuple[str, ...]]:
    """Every row on the board, in its order, as its cells' texts."""
    return [
        (key, *(table.cell_text(key, column.key) for column in table.specs))
        for key in table.row_keys
    ]


@pytest.mark.parametrize("mode", ["value", "dropping"])
async def test_a_paused_board_keeps_its_rows_through_answers_redraws_and_exports(
    fast_service: Service, mode: str
) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode=mode, with_feed=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen: Any = app.screen
        assert isinstance(screen, RestBoardScreen)
        table = screen.query_one(PatchTable)
        await wait_for(lambda: screen.loaded_at is not None and table.row_count > 3, pilot)
        await pilot.press("p")
        await wait_for(lambda: screen.paused, pilot)
        frozen, items, exported = shown(table), list(screen.items), records(screen)
        loaded_at = screen.loaded_at
        assert len(frozen) == table.row_count > 3 and len(exported) == len(frozen)

        async def moved() -> bool:
            """The service's answer now differs from the rows held (so a board that took it
            would show other rows): the world has moved on."""
            return await screen.fetch() != items

        for _ in range(100):
            if await moved():
                break
            await pilot.pause(0.2)
        else:
            raise AssertionError("the service's answer did not change in 20 s")
        await screen._fetch()  # the worker's path: an answer under way when the trader paused
        screen.redraw()  # as when a modal over the board closes
        await pilot.press("o")  # a sort orders the rows held, and takes no new data
        await pilot.pause(0.2)
        assert sorted(shown(table)) == sorted(frozen)
        assert records(screen) == exported
        assert screen.items == items and screen.loaded_at == loaded_at

        await pilot.press("p")  # resumed: the held answer is taken at once
        assert not screen.paused
        assert screen.loaded_at is not None and loaded_at is not None
        assert screen.loaded_at > loaded_at and screen.items != items
