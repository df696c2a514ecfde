"""TERM=dumb writes no OSC 8 hyperlinks (issue 21): the desk's line filter takes the link out of
every segment, leaving the text; an ordinary terminal keeps its links."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.filter import LineFilter

from oddstui.tui.event.price_grid import Cell, PriceGrid
from oddstui.tui.kit.columns import Column
from oddstui.tui.kit.no_links import NoLinks, links_wanted
from tests.tui.boards_recorded import boards_app
from tests.tui.screen_text import screen_text

URL = "https://book.example/e/1"


class LinkedGrid(App[None]):
    def __init__(self, filters: Sequence[LineFilter]) -> None:
        super().__init__()
        self._extra = list(filters)

    def get_line_filters(self) -> Sequence[LineFilter]:
        return [*super().get_line_filters(), *self._extra]

    def compose(self) -> ComposeResult:
        yield PriceGrid()

    def on_mount(self) -> None:
        grid = self.query_one(PriceGrid)
        grid.set_columns([Column("book", "Bookmaker", 24), Column("home", "Home", 9)])
        grid.sync_rows({"a": {"book": Cell("Linked", link=URL), "home": Cell("2.10")}})


async def links_drawn(filters: Sequence[LineFilter]) -> set[str]:
    app = LinkedGrid(filters)
    async with app.run_test(size=(40, 6)) as pilot:
        await pilot.pause()
        assert "Linked" in screen_text(app)
        return {
            segment.style.link
            for strip in app.screen._compositor.render_strips()
            for segment in strip
            if segment.style is not None and segment.style.link
        }


async def test_the_filter_takes_every_link_out_and_leaves_the_text() -> None:
    assert await links_drawn([]) == {URL}  # the grid does draw a link
    assert await links_drawn([NoLinks()]) == set()


@pytest.mark.parametrize(("term", "linked"), [("dumb", False), ("xterm-256color", True)])
def test_the_desk_filters_links_only_on_a_dumb_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, term: str, linked: bool
) -> None:
    monkeypatch.setenv("TERM", term)
    assert links_wanted() is linked
    app = boards_app(tmp_path, "arbitrage")
    filtered = any(isinstance(f, NoLinks) for f in app.get_line_filters())
    assert filtered is not linked
