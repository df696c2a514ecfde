"""What a recording holds, record by record (see README, "Recording format")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

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


class FeedMessage:
    """One feed message exactly as received, with its receive time and its seq (None for the
    seq-less score and status messages).

    Read from a recording, it holds the message's JSON text as stored, and parses it only when
    `message` is first asked for: a replay sends the text on as it is, and a backtest decodes it
    with the feed client's own decoder, so neither needs the dictionary. Equality compares time,
    seq and message.
    """

    __slots__ = ("time", "seq", "text", "_message")

    def __init__(
        self, time: float, seq: int | None, message: JsonObject | None = None, text: str = ""
    ) -> None:
        if message is None and not text:
            raise ValueError("a feed message needs its message or its text")
        self.time = time
        self.seq = seq
        self.text = text
        """The message's JSON text as stored ("" when made from a dictionary)."""
        self._message = message

    @property
    def message(self) -> JsonObject:
        if self._message is None:
            # msgspec, not orjson: the reader checked the text with msgspec, which takes some
            # JSON orjson does not (integers past 64 bits), and a message read must parse.
            self._message = msgspec.json.decode(self.text)
        return self._message

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FeedMessage):
            return NotImplemented
        return (self.time, self.seq, self.message) == (other.time, other.seq, other.message)

    __hash__ = None  # type: ignore[assignment]  # its message is a dictionary

    def __repr__(self) -> str:
        return f"FeedMessage(time={self.time!r}, seq={self.seq!r}, message={self.message!r})"


@dataclass(frozen=True, slots=True)
class Gap:
    """The feed lost messages after `after_seq` (a resync); a new Snapshot follows."""

    time: float
    after_seq: int | None
    reason: str


Record = Snapshot | FeedMessage | Gap
