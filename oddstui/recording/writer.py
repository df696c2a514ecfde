"""Writing a recording: records into hourly zstandard segments, the manifest kept current."""

from __future__ import annotations

import os
import time as _time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, BinaryIO

import orjson
import zstandard

from oddstui.recording.event_ids import as_event_id, message_event_id
from oddstui.recording.manifest import (
    MANIFEST_NAME,
    GapInfo,
    Manifest,
    SegmentInfo,
    iso,
    segment_name,
)
from oddstui.recording.records import RecordingError

FLUSH_SECONDS = 1.0  # a killed recorder loses at most about this much


class RecordingWriter:
    """Appends records to DIR. Every `FLUSH_SECONDS` the compressor flushes a block (so a killed
    recorder leaves a readable prefix) and the manifest is rewritten; a segment closes its frame
    at the hour. `max_size` (bytes) drops the oldest closed segments."""

    def __init__(
        self,
        folder: str | Path,
        *,
        source: str,
        markets: Sequence[str] | None,
        bookmakers: Sequence[str],
        max_size: int | None = None,
        clock: Callable[[], float] = _time.time,
        level: int = 3,
    ) -> None:
        self.folder = Path(folder)
        self._clock = clock
        self._max_size = max_size
        self._compressor = zstandard.ZstdCompressor(level=level)
        manifest_path = self.folder / MANIFEST_NAME
        if manifest_path.exists():
            raise RecordingError(
                str(manifest_path), "a recording is already there; choose a new folder"
            )
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise RecordingError(str(self.folder), f"cannot create ({error.strerror})") from None
        self.manifest = Manifest(
            source=source,
            markets=None if markets is None else list(markets),
            bookmakers=list(bookmakers),
            started=iso(clock()),
        )
        self._segment: SegmentInfo | None = None
        self._hour = ""  # the hourly name of the open segment
        self._hour_ends = 0.0  # unix time its hour ends
        self._last_t: float | None = None  # the open segment's last record time
        self.segments_opened = 0  # a recorder may write a snapshot at each new segment
        self._file: BinaryIO | None = None
        self._stream: Any = None
        self._last_flush = 0.0
        self._open_gap: GapInfo | None = None
        self.records = 0
        self.bytes_in = 0
        self._write_manifest()

    # -- records ---------------------------------------------------------------------------
    def snapshot(self, events: Sequence[Any], odds: Sequence[Any], t: float | None = None) -> None:
        self._append({"t": self._now(t), "kind": "snapshot", "events": events, "odds": odds}, None)

    def message(self, seq: int | None, message: Any, t: float | None = None) -> None:
        if seq is not None and self._open_gap is not None:
            self._open_gap.resumed_seq = seq
            self._open_gap = None
        self._append({"t": self._now(t), "kind": "message", "seq": seq, "message": message}, seq)
        size = len(orjson.dumps(message)) if isinstance(message, dict) else 0
        self._count(message.get("id") if isinstance(message, dict) else None, size)

    def message_line(
        self, seq: int | None, line: str, t: float | None = None, event_id: int | None = None
    ) -> None:
        """A message given as the JSON text it arrived as (one object, no newline): written as
        it is, without parsing it again. `event_id`: the event it is about, as parsed (read
        from `line` when not given)."""
        if seq is not None and self._open_gap is not None:
            self._open_gap.resumed_seq = seq
            self._open_gap = None
        now = self._now(t)
        head = orjson.dumps({"t": now, "kind": "message", "seq": seq})
        text = line.encode()
        self._append_line(head[:-1] + b',"message":' + text + b"}\n", now, seq)
        self._count(message_event_id(line) if event_id is None else event_id, len(text))

    def gap(self, after_seq: int | None, reason: str, t: float | None = None) -> None:
        now = self._now(t)
        self._append({"t": now, "kind": "gap", "afterSeq": after_seq, "reason": reason}, None)
        self._open_gap = GapInfo(iso(now), after_seq, None, reason)
        self.manifest.gaps.append(self._open_gap)

    # -- lifecycle -------------------------------------------------------------------------
    def flush(self) -> None:
        if self._stream is not None:
            self._stream.flush(zstandard.FLUSH_BLOCK)
            assert self._file is not None
            self._file.flush()
        self._write_manifest()
        self._last_flush = self._clock()

    def close(self) -> None:
        self._close_segment()
        self.manifest.ended = iso(self._clock())
        self._write_manifest()

    def size(self) -> int:
        """Bytes on disk of the segments (the open one as flushed so far)."""
        total = 0
        for segment in self.manifest.segments:
            try:
                total += (self.folder / segment.file).stat().st_size
            except FileNotFoundError:
                pass
        return total

    # -- inside ----------------------------------------------------------------------------
    def _now(self, t: float | None) -> float:
        return self._clock() if t is None else t

    def _count(self, event_id: object, size: int) -> None:
        """One more message about the event, of `size` bytes, in the open segment (a backtest
        shares events out among its processes by these counts)."""
        key = as_event_id(event_id)
        if key is not None and self._segment is not None:
            events = self._segment.events
            events[key] = events.get(key, 0) + 1
            sizes = self._segment.sizes
            if sizes is not None:
                sizes[key] = sizes.get(key, 0) + size

    def _append(self, record: dict[str, Any], seq: int | None) -> None:
        self._append_line(orjson.dumps(record) + b"\n", record["t"], seq)

    def _append_line(self, line: bytes, t: float, seq: int | None) -> None:
        # Forward only: a message buffered during a resync may carry an earlier receive time.
        if self._segment is None or t >= self._hour_ends:
            name = segment_name(t)
            if self._segment is None or name > self._hour:
                self._open_segment(name)
            self._hour_ends = (t // 3600.0 + 1.0) * 3600.0
        assert self._segment is not None
        self._stream.write(line)
        self.bytes_in += len(line)
        self.records += 1
        segment = self._segment
        segment.records += 1
        self._last_t = t  # made ISO text when the manifest is written: formatting is dear
        if segment.first_time is None:
            segment.first_time = iso(t)
        if seq is not None:
            if segment.first_seq is None:
                segment.first_seq = seq
            segment.last_seq = seq
        if self._clock() - self._last_flush >= FLUSH_SECONDS:
            self.flush()
            if self._max_size is not None and self._open_size() > self._max_size // 4:
                # Within the hour too: a segment past a quarter of the bound closes, so
                # dropping whole old segments keeps the folder near --max-size.
                self._open_segment(self._hour)

    def _open_segment(self, name: str) -> None:
        self._close_segment()
        self._last_t = None
        path = self.folder / name
        # A second run in the same hour after a restart would clash: number it instead.
        suffix = 1
        while path.exists():
            suffix += 1
            path = self.folder / name.replace(".jsonl.zst", f"-{suffix}.jsonl.zst")
        self._file = path.open("wb")
        self._stream = self._compressor.stream_writer(self._file, closefd=False)
        self._hour = name
        self.segments_opened += 1
        self._segment = SegmentInfo(file=path.name)
        self.manifest.segments.append(self._segment)
        self._drop_oldest()
        self._write_manifest()

    def _open_size(self) -> int:
        assert self._segment is not None
        try:
            return (self.folder / self._segment.file).stat().st_size
        except FileNotFoundError:
            return 0

    def _close_segment(self) -> None:
        if self._segment is not None and self._last_t is not None:
            self._segment.last_time = iso(self._last_t)
        if self._stream is not None:
            # Ends the frame; closing the stream too would append an empty frame.
            self._stream.flush(zstandard.FLUSH_FRAME)
        if self._file is not None:
            self._file.close()
        self._stream = None
        self._file = None

    def _drop_oldest(self) -> None:
        if self._max_size is None:
            return
        while len(self.manifest.segments) > 1 and self.size() > self._max_size:
            oldest = self.manifest.segments.pop(0)
            (self.folder / oldest.file).unlink(missing_ok=True)

    def _write_manifest(self) -> None:
        if self._segment is not None and self._last_t is not None:
            self._segment.last_time = iso(self._last_t)
        path = self.folder / MANIFEST_NAME
        partial = path.with_suffix(".json.partial")
        partial.write_bytes(orjson.dumps(self.manifest.to_json(), option=orjson.OPT_INDENT_2))
        os.replace(partial, path)
