"""A red card in a starred match, against the real built-in service (its football scores carry
`redCards`, ours): the desk alerts once, naming the event and the side, and the Live table shows
the card beside the score."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from oddstui import config
from oddstui.tui.alerts.rules import Throttle
from oddstui.tui.desk.state import LIVE
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, start_service, wait_for

pytestmark = pytest.mark.slow  # handed out first (tests/conftest.py)


@pytest.fixture(scope="module")
def service() -> Iterator[Service]:
    # 360x: a football match lasts about 20 s, and a card comes every 20-30 s among the live ones.
    service = start_service("--speed", "360", "--seed", "7")
    yield service
    service.stop()


@pytest.mark.timeout(400)
async def test_a_red_card_alerts_once_naming_the_side_and_shows_in_the_live_table(
    service: Service,
) -> None:
    app = build_app(service.base_url, DEMO_KEY, config.Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        app.alerts.throttle = Throttle(burst=10_000, every=0.001)
        await wait_for(lambda: app.hub.status.state == "live", pilot, timeout=60)
        board, watch = app.hub.board, app.hub.watch

        def red_cards() -> list[Any]:
            return [alert for alert in app.alerts.fired if alert.kind == "redcard"]

        def a_starred_match_got_a_card() -> bool:
            # Star every live football match as it kicks off, as a trader pressing `w` would.
            for event in list(board.events.values()):
                if event.sport_slug == "football" and event.status == LIVE:
                    if not watch.is_watched(event.id):
                        watch.toggle(event.id, event)
            return bool(red_cards())

        await wait_for(a_starred_match_got_a_card, pilot, timeout=300)
        alert = red_cards()[0]
        event = board.events[alert.event_id]
        assert event.red_cards is not None and sum(event.red_cards) >= 1
        assert alert.event == event.title
        assert alert.message.startswith(f"{event.title}: Red card (")
        side = alert.message.split("(")[-1].split(")")[0]
        assert side in ("home", "away", "home and away")

        await pilot.press("2")  # the Live table
        table = app.screen.query_one(PatchTable)
        key = str(alert.event_id)

        def card_beside_the_score() -> bool:
            return key in table.row_keys and "■" in table.cell_text(key, "score")

        if board.events[alert.event_id].status == LIVE:  # it may have ended in the meantime
            await wait_for(card_beside_the_score, pilot, timeout=30)
        carded = [k for k in table.row_keys if "■" in table.cell_text(k, "score")]
        # may be empty: the carded match may have ended; its alert is checked above
        for carded_key in carded:
            cards = board.events[int(carded_key)].red_cards
            assert cards is not None and sum(cards) >= 1
        # One alert per card: no match alerts a card more often than it was shown cards.
        for event_id in {a.event_id for a in red_cards()}:
            shown = board.events[event_id].red_cards or (0, 0)
            assert sum(1 for a in red_cards() if a.event_id == event_id) <= sum(shown)
