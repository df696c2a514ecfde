"""The ticket at 80x24 with the longest names, a leg at its bookmaker's limit and a rounding
that loses: the numbers and the warning stay whole, the names give way. Regenerate after an
intended change: `pytest tests/tui/boards/ticket/test_ticket_snapshot.py --snapshot-update`."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tui.boards.ticket.ticket_alone import TicketApp


@pytest.mark.parametrize("step", ["20", "1"])
def test_ticket_at_80x24(snap_compare: Any, step: str) -> None:
    assert snap_compare(TicketApp(step=step), terminal_size=(80, 24))
