"""Opening a recording: `open_recording(path).records()`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import orjson

from oddstui.recording.manifest import MANIFEST_NAME, Manifest, parse_manifest
from oddstui.recording.records import Record, RecordingError
from oddstui.recording.segments import read_segment


class Recording:
    """A recording folder: its manifest, and its records in the order received."""

    def __init__(self, folder: Path, manifest: Manifest) -> None:
        self.folder = folder
        self.manifest = manifest

    def records(self) -> Iterator[Record]:
        segments = self.manifest.segments
        for index, segment in enumerate(segments):
            yield from read_segment(
                self.folder / segment.file,
                last=index == len(segments) - 1,
                expected_records=segment.records,
            )


def open_recording(path: str | Path) -> Recording:
    """The recording in folder `path` (or whose manifest.json is `path`); checks every
    segment is there. RecordingError names the file and what is wrong."""
    given = Path(path)
    manifest_path = (
        given if given.name == MANIFEST_NAME and given.is_file() else given / MANIFEST_NAME
    )
    if not given.exists():
        raise RecordingError(str(given), "no such recording")
    try:
        data = orjson.loads(manifest_path.read_bytes())
    except FileNotFoundError:
        raise RecordingError(str(manifest_path), "manifest is missing") from None
    except OSError as error:
        raise RecordingError(str(manifest_path), f"cannot read ({error.strerror})") from None
    except orjson.JSONDecodeError:
        raise RecordingError(str(manifest_path), "manifest is not JSON") from None
    manifest = parse_manifest(str(manifest_path), data)
    folder = manifest_path.parent
    for segment in manifest.segments:
        if not (folder / segment.file).is_file():
            raise RecordingError(str(folder / segment.file), "segment file is missing")
    return Recording(folder, manifest)
