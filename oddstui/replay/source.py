"""The replay's `ChangeSource` for the server core's feed: seq, `lastSeq` replays, event places
and message texts, over the replayed state."""

from __future__ import annotations

from typing import NamedTuple

from oddstui.replay.state import ReplayState
from oddstui.server.feed.render import LineRenderer


class Sent(NamedTuple):
    """One recorded odds message as replayed; `line` is its JSON text."""

    seq: int
    kind: str
    event_id: int
    bookie: str
    line: str


class ReplaySource:
    def __init__(self, state: ReplayState, markets: list[str] | None) -> None:
        self.state = state
        self.carried = frozenset(m.casefold() for m in markets or ())
        self.floor = 0  # a lastSeq below this is from before the recording's last gap
        # The latest message of every (event, bookie) pair: a resume gets those after lastSeq,
        # the compacted replay a live service gives. The whole replay is the window.
        self._latest: dict[tuple[int, str], Sent] = {}

    @property
    def seq(self) -> int:
        return self.state.seq

    def sent(self, change: Sent) -> None:
        if not self.floor and not self._latest:
            # A position from before the recording's first message: the replay cannot say
            # what changed since, so such a client resyncs.
            self.floor = change.seq - 1
        self._latest[(change.event_id, change.bookie)] = change

    def restart(self) -> None:
        """A gap in the recording: no resume reaches across it."""
        self.floor = self.state.seq
        self._latest = {}

    def replay_since(self, last_seq: int) -> list[Sent] | None:
        if last_seq < self.floor or last_seq > self.state.seq:
            return None
        return sorted((c for c in self._latest.values() if c.seq > last_seq), key=_seq)

    def where(self, event_id: int) -> tuple[str, str, str]:
        return self.state.where(event_id)

    def renderer(self) -> LineRenderer:
        if not self.carried:  # every market was recorded: lines go as they are
            return LineRenderer(frozenset())
        return LineRenderer(self.carried)


def _seq(change: Sent) -> int:
    return change.seq
