"""What a white label copies: its parent's markets as they stood at the change it copies.

A sister copies each of its parent's changes `copy_delay` seconds after it. Copying the parent
as it stands when the copy falls due would also copy any later change of the parent within
that delay, early; so each change leaves a snapshot of the parent's markets (references: a
market's lines are replaced, never changed in place), and the copy takes the latest one due.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping

from oddstui.service.world.model import Market

Snapshot = dict[str, Market]


def snapshot_of(markets: Mapping[str, Market]) -> Snapshot:
    return {name: Market(name, m.updated_at, m.lines, m.version) for name, m in markets.items()}


class CopyQueue:
    """(event, sister) -> the parent's snapshots not yet copied, with when each falls due."""

    __slots__ = ("_pending",)

    def __init__(self) -> None:
        self._pending: dict[tuple[int, str], deque[tuple[float, Snapshot]]] = {}

    def changed(self, event_id: int, dues: Mapping[str, float],
                markets: Mapping[str, Market]) -> None:
        """The parent changed: each sister in `dues` copies its markets as they are now, at its
        due time (one snapshot shared by them all: it is never changed)."""
        if not dues:
            return
        snapshot = snapshot_of(markets)
        for sister, due in dues.items():
            pending = self._pending.setdefault((event_id, sister), deque())
            # In order: a copy made in play (a shorter delay) never overtakes one made before.
            pending.append((max(due, pending[-1][0]) if pending else due, snapshot))

    def take(self, event_id: int, sister: str, now: float) -> tuple[bool, Snapshot | None]:
        """What to copy now: (True, the latest snapshot due) or (True, None: nothing pending,
        so the parent as it stands), or (False, None): every change pending is not due yet."""
        pending = self._pending.get((event_id, sister))
        if not pending:
            return True, None
        latest: Snapshot | None = None
        while pending and pending[0][0] <= now:
            latest = pending.popleft()[1]
        if not pending:
            del self._pending[(event_id, sister)]
        return latest is not None, latest

    def next_due(self, event_id: int, sister: str) -> float | None:
        pending = self._pending.get((event_id, sister))
        return pending[0][0] if pending else None

    def forget(self, event_id: int) -> None:
        for key in [key for key in self._pending if key[0] == event_id]:
            del self._pending[key]
