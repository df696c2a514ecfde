"""A flashing price never takes its background's colour: every mix of the grid's roles, drawn
by the real grid with the desk's style sheets, in the dark and the light theme.

The bug this guards: a price rising (`up`, the rise colour) in the best cell of its column
(`best`, tinted with the same hue) was drawn `#5fa8ff` on `#5fa8ff`.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from rich.color import Color as RichColor

from oddstui.tui.event.grid_cells import MIN_CONTRAST, Cell, contrast_ratio
from oddstui.tui.event.price_grid import PriceGrid
from oddstui.tui.kit.columns import Column
from oddstui.tui.themes import THEMES
from tests.tui.event_recorded import event_app, open_recorded_event

FLASHES = (("up",), ("down",))
OTHERS = ("best", "value", "muted", "stale")


def rgb(colour: RichColor | None) -> tuple[int, int, int]:
    assert colour is not None
    triplet = colour.get_truecolor()
    return (triplet.red, triplet.green, triplet.blue)


def test_contrast_ratio_bounds() -> None:
    assert contrast_ratio((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert contrast_ratio((95, 168, 255), (95, 168, 255)) == pytest.approx(1.0)


@pytest.mark.parametrize("theme", [theme.name for theme in THEMES])
async def test_a_flashing_price_always_contrasts_its_background(tmp_path: Path, theme: str) -> None:
    app, event_id = event_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_recorded_event(pilot, event_id)
        app.theme = theme
        await pilot.pause(0.2)
        # A grid of its own on the Event screen (its style sheet applies), which the screen's
        # own updates leave alone.
        grid = PriceGrid(id="probe")
        await app.screen.mount(grid)
        grid.focus()
        column = Column("price", "Price", 9, justify="right")
        combos = [
            flash + extra
            for flash in FLASHES
            for count in range(len(OTHERS) + 1)
            for extra in itertools.combinations(OTHERS, count)
        ]
        grid.set_columns([column])
        grid.sync_rows(
            {f"row {i}": {"price": Cell("▲ 2.10", roles)} for i, roles in enumerate(combos)}
        )
        await pilot.pause(0.1)
        checked = 0
        for index, roles in enumerate(combos):
            for cursor in (False, True):
                grid.cursor_row = index if cursor else len(combos)  # the cursor's tint too
                strip = grid.render_cell(column, index)
                texts = [segment for segment in strip if segment.text.strip()]
                assert texts, roles
                for segment in texts:
                    style = segment.style
                    assert style is not None
                    fg, bg = rgb(style.color), rgb(style.bgcolor)
                    assert fg != bg, (theme, roles, cursor)
                    assert contrast_ratio(fg, bg) >= MIN_CONTRAST, (theme, roles, cursor, fg, bg)
                    checked += 1
        assert checked == 2 * len(combos)
