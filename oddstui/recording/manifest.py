"""DIR/manifest.json: what a recording is, and where its segments are."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from oddstui.recording.records import RecordingError

FORMAT = "oddstui-recording"
VERSION = 1
MANIFEST_NAME = "manifest.json"


def iso(unix: float) -> str:
    """ISO-8601 UTC to the millisecond: `datetime.isoformat(timespec="milliseconds")`, with the
    formatting of each whole second kept (a backtest's report writes a time for each of its
    tens of thousands of findings, most of them in the same seconds)."""
    if not 0 <= unix < _FAR:
        return _iso(unix)
    fraction, whole = math.modf(unix)
    micros = round(fraction * 1e6)  # as `datetime.fromtimestamp` rounds: half to even
    second = int(whole)
    if micros >= 1_000_000:
        second, micros = second + 1, micros - 1_000_000
    return f"{_second(second)}.{micros // 1000:03d}Z"  # milliseconds cut, as isoformat cuts


_FAR = 253_402_300_799.0  # 9999-12-31T23:59:59Z


@lru_cache(maxsize=4096)
def _second(unix: int) -> str:
    return datetime.fromtimestamp(unix, UTC).isoformat()[:19]


def _iso(unix: float) -> str:
    stamp = datetime.fromtimestamp(unix, UTC).isoformat(timespec="milliseconds")
    return stamp.replace("+00:00", "Z")


def unix(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def segment_name(unix_time: float) -> str:
    """The hourly segment a record received at `unix_time` belongs to."""
    return datetime.fromtimestamp(unix_time, UTC).strftime("%Y%m%dT%H") + ".jsonl.zst"


@dataclass(slots=True)
class SegmentInfo:
    file: str
    first_seq: int | None = None
    last_seq: int | None = None
    first_time: str | None = None
    last_time: str | None = None
    records: int = 0
    events: dict[int, int] = field(default_factory=dict)
    """event id -> the feed messages about it in the segment (as of the manifest's writing: the
    last second of a killed recorder may be missing)."""
    sizes: dict[int, int] | None = field(default_factory=dict)
    """event id -> the bytes of those messages' JSON; None in a recording from before they
    were counted. A message's work grows with its size (a bookmaker sends all its markets in
    each), which varies tenfold between events, so a shared run deals events by these."""

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "firstSeq": self.first_seq,
            "lastSeq": self.last_seq,
            "firstTime": self.first_time,
            "lastTime": self.last_time,
            "records": self.records,
            "events": {str(event_id): count for event_id, count in self.events.items()},
            "eventBytes": {str(event_id): size for event_id, size in (self.sizes or {}).items()},
        }


@dataclass(slots=True)
class GapInfo:
    time: str
    after_seq: int | None
    resumed_seq: int | None
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "time": self.time,
            "afterSeq": self.after_seq,
            "resumedSeq": self.resumed_seq,
            "reason": self.reason,
        }


@dataclass(slots=True)
class Manifest:
    source: str  # the base URL, never the key
    markets: list[str] | None
    bookmakers: list[str]
    started: str
    ended: str | None = None
    # The source's welcome said each odds message lists all the bookmaker's markets (WIRE.md).
    complete_markets: bool = False
    segments: list[SegmentInfo] = field(default_factory=list)
    gaps: list[GapInfo] = field(default_factory=list)

    def event_messages(self) -> dict[int, int]:
        """event id -> its feed messages in the recording (a recording from before segments
        counted them counts none)."""
        total: dict[int, int] = {}
        for segment in self.segments:
            for event_id, count in segment.events.items():
                total[event_id] = total.get(event_id, 0) + count
        return total

    def event_sizes(self) -> dict[int, int] | None:
        """event id -> the bytes of its feed messages in the recording; None when a segment did
        not count them (a recording from before they were)."""
        total: dict[int, int] = {}
        for segment in self.segments:
            if segment.sizes is None:
                return None
            for event_id, size in segment.sizes.items():
                total[event_id] = total.get(event_id, 0) + size
        return total

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "source": self.source,
            "markets": self.markets,
            "bookmakers": self.bookmakers,
            "started": self.started,
            "ended": self.ended,
            "completeMarkets": self.complete_markets,
            "segments": [s.to_json() for s in self.segments],
            "gaps": [g.to_json() for g in self.gaps],
        }


def parse_manifest(path: str, data: Any) -> Manifest:
    """The manifest from its JSON, or RecordingError naming `path` and the bad field."""
    if not isinstance(data, dict):
        raise RecordingError(path, "manifest is not a JSON object")
    if data.get("format") != FORMAT:
        raise RecordingError(path, f"not an oddstui recording (format {data.get('format')!r})")
    if data.get("version") != VERSION:
        raise RecordingError(
            path, f"recording format version {data.get('version')!r}, this reads {VERSION}"
        )
    try:
        markets = data["markets"]
        segments = [
            SegmentInfo(
                file=_file_name(s["file"]),
                first_seq=_opt_int(s.get("firstSeq")),
                last_seq=_opt_int(s.get("lastSeq")),
                first_time=s.get("firstTime"),
                last_time=s.get("lastTime"),
                records=int(s.get("records", 0)),
                events=_event_counts(s.get("events", {})),
                sizes=_event_counts(s["eventBytes"]) if "eventBytes" in s else None,
            )
            for s in data["segments"]
        ]
        gaps = [
            GapInfo(
                time=str(g["time"]),
                after_seq=_opt_int(g.get("afterSeq")),
                resumed_seq=_opt_int(g.get("resumedSeq")),
                reason=str(g.get("reason", "")),
            )
            for g in data.get("gaps", [])
        ]
        return Manifest(
            source=str(data["source"]),
            markets=None if markets is None else [str(m) for m in markets],
            bookmakers=[str(b) for b in data["bookmakers"]],
            started=str(data["started"]),
            ended=None if data.get("ended") is None else str(data["ended"]),
            complete_markets=data.get("completeMarkets") is True,
            segments=segments,
            gaps=gaps,
        )
    except (KeyError, TypeError, ValueError) as error:
        raise RecordingError(path, f"bad manifest field {error}") from None


def _opt_int(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{value!r} is not an integer")
    return value


def _file_name(value: Any) -> str:
    # A segment lives in the recording's folder: no paths out of it.
    if not isinstance(value, str) or not value or "/" in value or "\\" in value or value[0] == ".":
        raise ValueError(f"segment file {value!r}")
    return value


def _event_counts(value: Any) -> dict[int, int]:
    if not isinstance(value, dict):
        raise ValueError(f"events {value!r} is not an object")
    return {int(event_id): _count(count) for event_id, count in value.items()}


def _count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{value!r} is not a count")
    return value
