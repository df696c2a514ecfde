"""Reading one segment: zstandard frames of JSON lines, back into records."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import orjson
import zstandard

from oddstui.recording.records import FeedMessage, Gap, Record, RecordingError, Snapshot

_CHUNK = 1 << 20


def read_segment(path: Path, *, last: bool, expected_records: int = 0) -> Iterator[Record]:
    """The records of one segment file, in order.

    A segment the recorder was killed while writing ends in an unfinished frame or line: the
    last segment then yields up to its last whole record; any other one is an error. A closed
    segment that holds fewer records than the manifest counted was cut short.
    """
    name = str(path)
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        raise RecordingError(name, "segment file is missing") from None
    except OSError as error:
        raise RecordingError(name, f"cannot open segment ({error.strerror})") from None
    count = 0
    pending = b""
    with handle:
        frames = _decompressed(handle, name)
        for block in frames.blocks():
            pending += block
            lines = pending.split(b"\n")
            pending = lines.pop()
            for line in lines:
                count += 1
                if line:
                    yield parse_record(line, name, count)
    if pending or frames.unfinished:
        if not last:
            raise RecordingError(name, f"segment is truncated after record {count}")
        return
    if not last and count < expected_records:
        raise RecordingError(
            name, f"segment is truncated: {count} records, the manifest counts {expected_records}"
        )


class _decompressed:
    def __init__(self, handle: Any, name: str) -> None:
        self._handle = handle
        self._name = name
        self.unfinished = False  # input ended inside a frame

    def blocks(self) -> Iterator[bytes]:
        context = zstandard.ZstdDecompressor()
        frame = context.decompressobj()
        try:
            while chunk := self._handle.read(_CHUNK):
                data = chunk
                while data:
                    out = frame.decompress(data)
                    if out:
                        yield out
                    if frame.eof:
                        data = frame.unused_data
                        frame = context.decompressobj()
                        self.unfinished = False
                    else:
                        data = b""
                        self.unfinished = True
        except zstandard.ZstdError as error:
            raise RecordingError(self._name, f"corrupt compressed data ({error})") from None


class _MessageLine(msgspec.Struct, gc=False):
    """A message record's line, its message left as text (checked as JSON, not parsed)."""

    t: float
    kind: str
    message: msgspec.Raw
    seq: int | None = None


_decode_message_line = msgspec.json.Decoder(_MessageLine).decode


def parse_record(line: bytes, name: str, number: int) -> Record:
    try:
        head = _decode_message_line(line)
        text = bytes(head.message)
        if head.kind == "message" and text[:1] == b"{":
            return FeedMessage(head.t, head.seq, text=text.decode())
    except (msgspec.DecodeError, UnicodeDecodeError):
        pass  # another kind of record, or a corrupt line: judged below
    try:
        raw = orjson.loads(line)
        kind = raw["kind"]
        time = _number(raw["t"])
        if kind == "message":
            seq = raw.get("seq")
            message = raw["message"]
            if (seq is not None and not _is_int(seq)) or not isinstance(message, dict):
                raise ValueError(
                    "message record needs an integer or null seq and an object message"
                )
            return FeedMessage(time, seq, message)
        if kind == "snapshot":
            events, odds = raw["events"], raw["odds"]
            if not isinstance(events, list) or not isinstance(odds, list):
                raise ValueError("snapshot record needs events and odds lists")
            if not all(isinstance(item, dict) for item in events + odds):
                raise ValueError("snapshot events and odds must be objects")
            return Snapshot(time, tuple(events), tuple(odds))
        if kind == "gap":
            after = raw.get("afterSeq")
            if after is not None and not _is_int(after):
                raise ValueError("gap record's afterSeq must be an integer")
            return Gap(time, after, str(raw.get("reason", "")))
        raise ValueError(f"unknown kind {kind!r}")
    except orjson.JSONDecodeError:
        raise RecordingError(name, f"corrupt line {number}: not JSON") from None
    except (KeyError, TypeError, ValueError) as error:
        raise RecordingError(name, f"corrupt line {number}: {_what(error)}") from None


def _what(error: Exception) -> str:
    if isinstance(error, KeyError):
        return f"no field {error}"
    return str(error)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError("t must be a number")
    return float(value)
