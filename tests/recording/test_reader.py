"""The recording format: what the writer writes, the reader reads back; bad files are named."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
import zstandard

from oddstui.recording import (
    FeedMessage,
    Gap,
    RecordingError,
    Snapshot,
    open_recording,
)
from oddstui.recording.writer import RecordingWriter

HOUR = 3600.0
T0 = 1_790_000_000.0  # 2026-09-21T14:13:20Z


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


def odds_message(seq: int, price: str) -> dict[str, object]:
    return {
        "type": "updated",
        "seq": seq,
        "id": 7,
        "bookie": "Bet365",
        "markets": [{"name": "ML", "odds": [{"home": price, "away": "2.0"}]}],
    }


def write_sample(folder: Path, *, close: bool = True, hours: int = 2) -> RecordingWriter:
    clock = Clock()
    writer = RecordingWriter(
        folder, source="http://127.0.0.1:1/v3", markets=["ML"], bookmakers=["Bet365"], clock=clock
    )
    writer.snapshot([{"id": 7}], [{"id": 7, "bookmakers": {}}])
    seq = 100
    for hour in range(hours):
        for step in range(5):
            clock.now = T0 + hour * HOUR + step * 2.0
            seq += 1
            writer.message(seq, odds_message(seq, f"1.{seq}"))
    writer.message(None, {"type": "score", "id": 7, "scores": {"home": 1, "away": 0}})
    writer.gap(seq, "resync_required")
    writer.snapshot([{"id": 7}], [{"id": 7, "bookmakers": {}}])
    writer.message(seq + 50, odds_message(seq + 50, "1.9"))
    if close:
        writer.close()
    else:
        writer.flush()
    return writer


def test_round_trip_keeps_every_record_in_order(tmp_path: Path) -> None:
    write_sample(tmp_path)
    recording = open_recording(tmp_path)
    records = list(recording.records())
    assert records, "the recording must hold records"
    assert isinstance(records[0], Snapshot) and records[0].events == ({"id": 7},)
    messages = [r for r in records if isinstance(r, FeedMessage)]
    assert [m.seq for m in messages] == [*range(101, 111), None, 160]
    assert messages[0].message == odds_message(101, "1.101")
    # Each message's own text comes along, to be sent on as it is.
    assert all(orjson.loads(m.text) == m.message for m in messages)
    gaps = [r for r in records if isinstance(r, Gap)]
    assert gaps == [Gap(gaps[0].time, 110, "resync_required")]
    assert isinstance(records[-2], Snapshot)
    manifest = recording.manifest
    assert len(manifest.segments) == 2  # two hours, two segments
    assert manifest.segments[0].first_seq == 101 and manifest.segments[-1].last_seq == 160
    assert manifest.gaps[0].after_seq == 110 and manifest.gaps[0].resumed_seq == 160
    assert manifest.ended is not None and manifest.source == "http://127.0.0.1:1/v3"


def test_the_manifest_counts_each_events_messages_by_segment(tmp_path: Path) -> None:
    write_sample(tmp_path)  # event 7: five messages in the first hour; then five, a score, one
    clock = Clock()
    writer = RecordingWriter(
        tmp_path / "more", source="x", markets=None, bookmakers=[], clock=clock
    )
    writer.message(1, {**odds_message(1, "1.5"), "id": "8"})  # an id as text is the same event
    writer.message_line(2, orjson.dumps(odds_message(2, "1.6")).decode())  # read from the text
    writer.message_line(3, orjson.dumps({**odds_message(3, "1.7"), "id": 9}).decode(), None, 8)
    writer.message(None, {"type": "score", "scores": {}})  # no event: not counted
    writer.close()
    assert [s.events for s in open_recording(tmp_path).manifest.segments] == [{7: 5}, {7: 7}]
    assert open_recording(tmp_path).manifest.event_messages() == {7: 12}
    assert open_recording(tmp_path / "more").manifest.event_messages() == {8: 2, 7: 1}
    # And their bytes: the message's JSON, as written into its line.
    sizes = open_recording(tmp_path / "more").manifest.event_sizes()
    first = len(orjson.dumps({**odds_message(1, "1.5"), "id": "8"}))
    third = len(orjson.dumps({**odds_message(3, "1.7"), "id": 9}))
    assert sizes == {8: first + third, 7: len(orjson.dumps(odds_message(2, "1.6")))}


def test_a_manifest_from_before_event_bytes_reads_as_none_counted(tmp_path: Path) -> None:
    write_sample(tmp_path)  # twelve messages, all about event 7
    manifest = tmp_path / "manifest.json"
    read = [r for r in open_recording(tmp_path).records() if isinstance(r, FeedMessage)]
    assert len(read) == 12
    sizes = open_recording(tmp_path).manifest.event_sizes()
    assert sizes == {7: sum(len(message.text.encode()) for message in read)}
    data = orjson.loads(manifest.read_bytes())
    del data["segments"][1]["eventBytes"]  # one segment without: the sizes are not known
    manifest.write_bytes(orjson.dumps(data))
    assert open_recording(tmp_path).manifest.event_sizes() is None
    assert open_recording(tmp_path).manifest.event_messages() == {7: 12}


def test_a_bad_event_count_in_the_manifest_is_named(tmp_path: Path) -> None:
    write_sample(tmp_path)
    manifest = tmp_path / "manifest.json"
    for bad in ({"7": -1}, {"7": "five"}, {"seven": 5}, [7]):
        data = orjson.loads(manifest.read_bytes())
        data["segments"][0]["events"] = bad
        manifest.write_bytes(orjson.dumps(data))
        with pytest.raises(RecordingError, match="bad manifest field") as caught:
            open_recording(tmp_path)
        assert caught.value.path == str(manifest)


def test_a_manifest_from_before_event_counts_reads_as_none_counted(tmp_path: Path) -> None:
    write_sample(tmp_path)
    manifest = tmp_path / "manifest.json"
    data = orjson.loads(manifest.read_bytes())
    for segment in data["segments"]:
        del segment["events"]
    manifest.write_bytes(orjson.dumps(data))
    assert open_recording(tmp_path).manifest.event_messages() == {}


def test_killed_recorder_reads_up_to_the_last_whole_record(tmp_path: Path) -> None:
    write_sample(tmp_path, close=False)  # no closing frame: as if killed after a flush
    segment = tmp_path / open_recording(tmp_path).manifest.segments[-1].file
    data = segment.read_bytes()
    segment.write_bytes(data[:-5])  # and cut inside the last block
    records = list(open_recording(tmp_path).records())
    assert records and isinstance(records[0], Snapshot)
    seqs = [r.seq for r in records if isinstance(r, FeedMessage)]
    assert seqs[:5] == list(range(101, 106)) and len(seqs) < 12


def test_missing_segment_is_named(tmp_path: Path) -> None:
    write_sample(tmp_path)
    first = tmp_path / open_recording(tmp_path).manifest.segments[0].file
    first.unlink()
    with pytest.raises(RecordingError, match="segment file is missing") as caught:
        open_recording(tmp_path)
    assert caught.value.path == str(first)


def test_truncated_segment_other_than_the_last_is_an_error(tmp_path: Path) -> None:
    write_sample(tmp_path)
    first = tmp_path / open_recording(tmp_path).manifest.segments[0].file
    first.write_bytes(first.read_bytes()[:-7])
    with pytest.raises(RecordingError, match="truncated") as caught:
        list(open_recording(tmp_path).records())
    assert caught.value.path == str(first)


def test_corrupt_line_is_named_with_its_number(tmp_path: Path) -> None:
    write_sample(tmp_path)
    first = tmp_path / open_recording(tmp_path).manifest.segments[0].file
    lines = zstandard.ZstdDecompressor().decompressobj().decompress(first.read_bytes()).split(b"\n")
    lines[2] = b'{"t": 1, "kind": "message", "seq": 3, "message": [1'
    first.write_bytes(zstandard.ZstdCompressor().compress(b"\n".join(lines)))
    with pytest.raises(RecordingError, match="corrupt line 3: not JSON") as caught:
        list(open_recording(tmp_path).records())
    assert caught.value.path == str(first)
    assert "\n" not in str(caught.value)


def test_wrong_shape_line_is_corrupt(tmp_path: Path) -> None:
    write_sample(tmp_path)
    first = tmp_path / open_recording(tmp_path).manifest.segments[0].file
    first.write_bytes(zstandard.ZstdCompressor().compress(b'{"t": 1, "kind": "message"}\n'))
    with pytest.raises(RecordingError, match="corrupt line 1: no field 'message'"):
        list(open_recording(tmp_path).records())


def test_corrupt_compressed_data_is_named(tmp_path: Path) -> None:
    write_sample(tmp_path)
    first = tmp_path / open_recording(tmp_path).manifest.segments[0].file
    first.write_bytes(b"this is not zstandard at all")
    with pytest.raises(RecordingError, match="corrupt compressed data") as caught:
        list(open_recording(tmp_path).records())
    assert caught.value.path == str(first)


def test_other_version_is_refused(tmp_path: Path) -> None:
    write_sample(tmp_path)
    manifest = tmp_path / "manifest.json"
    data = orjson.loads(manifest.read_bytes())
    data["version"] = 2
    manifest.write_bytes(orjson.dumps(data))
    with pytest.raises(RecordingError, match="version 2") as caught:
        open_recording(tmp_path)
    assert caught.value.path == str(manifest)


def test_not_a_recording(tmp_path: Path) -> None:
    with pytest.raises(RecordingError, match="manifest is missing"):
        open_recording(tmp_path)
    with pytest.raises(RecordingError, match="no such recording"):
        open_recording(tmp_path / "nowhere")
    (tmp_path / "manifest.json").write_text("{}")
    with pytest.raises(RecordingError, match="not an oddstui recording"):
        open_recording(tmp_path)


def test_segment_path_cannot_leave_the_folder(tmp_path: Path) -> None:
    write_sample(tmp_path)
    manifest = tmp_path / "manifest.json"
    data = orjson.loads(manifest.read_bytes())
    data["segments"][0]["file"] = "../elsewhere.jsonl.zst"
    manifest.write_bytes(orjson.dumps(data))
    with pytest.raises(RecordingError, match="bad manifest field"):
        open_recording(tmp_path)


def test_writer_refuses_an_existing_recording(tmp_path: Path) -> None:
    write_sample(tmp_path)
    with pytest.raises(RecordingError, match="already there"):
        RecordingWriter(tmp_path, source="x", markets=None, bookmakers=[])


def test_max_size_drops_the_oldest_segments(tmp_path: Path) -> None:
    clock = Clock()
    writer = RecordingWriter(
        tmp_path, source="s", markets=None, bookmakers=["Bet365"], max_size=20_000, clock=clock
    )
    writer.snapshot([], [])
    for seq in range(1, 4000):
        clock.now = T0 + seq * 0.5
        # random-ish prices so that compression cannot make the segments tiny
        writer.message(seq, odds_message(seq, f"{(seq * 7919) % 1000 / 97:.5f}"))
    writer.close()
    recording = open_recording(tmp_path)
    assert len(recording.manifest.segments) >= 2
    assert writer.size() <= 20_000 + 20_000 // 4 + 4096
    on_disk = sorted(p.name for p in tmp_path.glob("*.jsonl.zst"))
    assert on_disk == sorted(s.file for s in recording.manifest.segments)
    seqs = [r.seq for r in recording.records() if isinstance(r, FeedMessage) and r.seq]
    assert seqs and seqs[-1] == 3999 and seqs[0] > 1  # the oldest went, the newest stayed
    assert seqs == list(range(seqs[0], 4000))
