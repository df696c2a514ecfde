"""Pop-ups against the real built-in service: the screen behind help or a ticket keeps its
status bar and match clocks moving."""

from __future__ import annotations

from textual.screen import ModalScreen

from oddstui.tui.browse.live import LiveScreen
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.kit.status_bar import StatusBar
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, wait_for


async def test_clocks_and_status_behind_a_modal_keep_moving(fast_service: Service) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY)
    async with app.run_test(size=(120, 40)) as pilot:
        live = app.screen
        assert isinstance(live, LiveScreen)
        table = live.query_one(PatchTable)
        await wait_for(lambda: table.row_count > 0 and app.hub.status.state == "live", pilot, 30)

        def readings() -> tuple[str, list[str]]:
            status = str(live.query_one(StatusBar).render())
            return status, [table.cell_text(key, "clock") for key in table.row_keys]

        await pilot.press("question_mark")
        await wait_for(lambda: isinstance(app.screen, ModalScreen), pilot)
        status_before, clocks_before = readings()
        # The wall clock in the status bar moves, and the match clocks (at 60x, a minute of
        # play a tick), while the modal stays up.
        await wait_for(lambda: readings()[0] != status_before, pilot)
        await wait_for(lambda: readings()[1] != clocks_before, pilot)
        assert isinstance(app.screen, ModalScreen)
        assert live.under_modal
        await pilot.press("escape")
        await wait_for(lambda: app.screen is live, pilot)
        assert not live.under_modal
