"""An event table's export against the real service: the events it lists, as data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oddstui.tui.browse.live import LiveScreen
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, wait_for


async def test_the_live_table_exports_its_events_as_data(
    fast_service: Service, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="live")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, LiveScreen)
        await wait_for(lambda: screen.table.row_count > 0, pilot, timeout=30)
        # The export and what the table and board hold, read in one step (the world moves on).
        keys = screen.table.row_keys
        shown = {int(key): app.hub.board.events[int(key)] for key in keys}
        statuses = {event_id: event.status for event_id, event in shown.items()}
        screen.action_export("json")
    (path,) = tmp_path.glob("oddstui-live-*.json")
    records = json.loads(path.read_text())
    assert records
    assert [record["eventId"] for record in records] == [int(key) for key in keys]
    for record in records:
        event = shown[record["eventId"]]
        assert record["event"] == event.title and record["sport"] == event.sport_name
        assert record["status"] == statuses[record["eventId"]]
        assert isinstance(record["scoreHome"], int) and isinstance(record["startsAt"], float)
        assert record["playedSeconds"] is None or isinstance(record["playedSeconds"], int)
