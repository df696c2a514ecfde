"""Recordings of a v3 feed: the format, its reader and its writer (no UI, no service).

A recording is a folder: manifest.json and hourly zstandard segments of JSON lines (README,
"Recording format"). `open_recording(path).records()` reads one back.
"""

from oddstui.recording.manifest import FORMAT, VERSION, GapInfo, Manifest, SegmentInfo
from oddstui.recording.reader import Recording, open_recording
from oddstui.recording.records import FeedMessage, Gap, Record, RecordingError, Snapshot

__all__ = [
    "FORMAT",
    "VERSION",
    "FeedMessage",
    "Gap",
    "GapInfo",
    "Manifest",
    "Record",
    "Recording",
    "RecordingError",
    "SegmentInfo",
    "Snapshot",
    "open_recording",
]
