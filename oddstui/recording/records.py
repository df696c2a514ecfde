"""What a recording holds, record by record (see README, "Recording format")."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

JsonObject = dict[str, Any]


class RecordingError(Exception):
    """A recording that cannot be read: names the file and what is wrong, in one line."""

    def __init__(self, path: str, what: str) -> None:
        super().__init__(f"{path}: {what}")
        self.path = path
        self.what = what

    def __reduce__(self) -> tuple[type[RecordingError], tuple[str, str]]:
        return RecordingError, (self.path, self.what)  # raised in a worker, read in its parent


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The REST state of the tracked events: at the start and after every gap."""

    time: float
    events: tuple[JsonObject, ...]  # as /events returns them
    odds: tuple[JsonObject, ...]  # as /odds returns them, one per event


@dataclass(frozen=True, slots=True)
class FeedMessage:
    """One feed message exactly as received, with its receive time and its seq (None for the
    seq-less score and status messages)."""

    time: float
    seq: int | None
    message: JsonObject
    # The message's JSON text as stored, when the reader could cut it out of its line: a
    # replay sends it on without encoding it again. Not part of equality.
    text: str = field(default="", compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Gap:
    """The feed lost messages after `after_seq` (a resync); a new Snapshot follows."""

    time: float
    after_seq: int | None
    reason: str


Record = Snapshot | FeedMessage | Gap
