"""`oddstui record` and `oddstui replay` on bad input: one line naming what is wrong, exit 2; a
recording whose recorder was killed replays up to its last whole message."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import orjson
import pytest
import zstandard

from oddstui.recording import open_recording
from oddstui.recording.writer import RecordingWriter
from tests.serving import READY, read_ready, terminate

pytestmark = pytest.mark.timeout(120)
T0 = 1_790_000_000.0
HOUR = 3600.0
EVENT = {
    "id": 7,
    "home": "Home FC",
    "away": "Away FC",
    "date": "2026-09-21T14:00:00.000Z",
    "status": "live",
    "sport": {"name": "Football", "slug": "football"},
    "league": {"name": "Test League", "slug": "test-league"},
    "scores": {"home": 0, "away": 0},
}


def ml(price: str) -> list[dict[str, object]]:
    return [{"name": "ML", "updatedAt": "2026-09-21T14:00:00Z", "odds": [{"home": price}]}]


def write_recording(folder: Path, *, close: bool = True) -> None:
    """Two hourly segments; event 7's Bet365 home price is 1.<seq> after each message."""
    now = [T0]
    writer = RecordingWriter(
        folder, source="http://x/v3", markets=["ML"], bookmakers=["Bet365"], clock=lambda: now[0]
    )
    writer.snapshot([EVENT], [{**EVENT, "bookmakers": {"Bet365": ml("1.100")}, "urls": {}}])
    for seq in range(101, 121):
        now[0] = T0 + (seq - 101) * (HOUR / 10)  # ten messages an hour: two segments
        message = {
            "type": "updated",
            "seq": seq,
            "id": 7,
            "bookie": "Bet365",
            "markets": ml(f"1.{seq}"),
        }
        writer.message(seq, message)
    if close:
        writer.close()
    else:
        writer.flush()


def oddstui(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ODDSTUI_HOME": str(home)}
    env.pop("ODDSTUI_API_KEY", None)
    return subprocess.run(
        [sys.executable, "-m", "oddstui", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


def one_line_exit_2(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert words
    for word in words:
        assert word in lines[0]


def segment(folder: Path, index: int) -> Path:
    return folder / open_recording(folder).manifest.segments[index].file


@pytest.mark.parametrize(
    ("flags", "word"),
    [
        (["--max-size", "lots"], "--max-size"),
        (["--duration", "-5"], "--duration"),
        (["--markets", ","], "--markets"),
    ],
)
def test_record_bad_flags(tmp_path: Path, flags: list[str], word: str) -> None:
    result = oddstui("record", "--out", str(tmp_path / "r"), *flags, home=tmp_path)
    one_line_exit_2(result, word)
    assert not (tmp_path / "r").exists()


def test_record_refuses_an_existing_recording(tmp_path: Path) -> None:
    write_recording(tmp_path / "r")
    result = oddstui(
        "record", "--out", str(tmp_path / "r"), "--base-url", "http://127.0.0.1:9/v3", home=tmp_path
    )
    one_line_exit_2(result, "already there")


def test_replay_missing_segment(tmp_path: Path) -> None:
    folder = tmp_path / "r"
    write_recording(folder)
    missing = segment(folder, 0)
    missing.unlink()
    one_line_exit_2(oddstui("replay", str(folder), home=tmp_path), str(missing), "missing")


def test_replay_truncated_segment(tmp_path: Path) -> None:
    folder = tmp_path / "r"
    write_recording(folder)
    first = segment(folder, 0)
    first.write_bytes(first.read_bytes()[:-9])
    one_line_exit_2(oddstui("replay", str(folder), home=tmp_path), str(first), "truncated")


def test_replay_corrupt_line(tmp_path: Path) -> None:
    folder = tmp_path / "r"
    write_recording(folder)
    first = segment(folder, 0)
    lines = zstandard.ZstdDecompressor().decompressobj().decompress(first.read_bytes())
    broken = lines.replace(b'"seq":103', b'"seq":"103"', 1)
    assert broken != lines
    first.write_bytes(zstandard.ZstdCompressor().compress(broken))
    one_line_exit_2(oddstui("replay", str(folder), home=tmp_path), str(first), "corrupt line")


def test_replay_other_version(tmp_path: Path) -> None:
    folder = tmp_path / "r"
    write_recording(folder)
    manifest = folder / "manifest.json"
    data = orjson.loads(manifest.read_bytes())
    data["version"] = 9
    manifest.write_bytes(orjson.dumps(data))
    one_line_exit_2(oddstui("replay", str(folder), home=tmp_path), str(manifest), "version 9")


def test_replay_bad_flags(tmp_path: Path) -> None:
    folder = tmp_path / "r"
    write_recording(folder)
    one_line_exit_2(oddstui("replay", str(folder), "--speed", "0", home=tmp_path), "--speed")
    one_line_exit_2(oddstui("replay", str(folder), "--from", "soon", home=tmp_path), "--from")
    one_line_exit_2(oddstui("replay", str(folder), "--from", "9h", home=tmp_path), "--from")
    one_line_exit_2(oddstui("replay", str(tmp_path / "none"), home=tmp_path), "no such recording")


def test_killed_recorder_replays_up_to_its_last_whole_message(tmp_path: Path) -> None:
    folder = tmp_path / "r"
    write_recording(folder, close=False)  # no closing frame, no `ended`: killed
    last = segment(folder, -1)
    data = last.read_bytes()
    last.write_bytes(data[:-4])  # and its last block cut short
    whole = [r for r in open_recording(folder).records()]
    last_seq = whole[-1].seq  # type: ignore[union-attr]
    assert last_seq is not None and 110 < last_seq < 120
    process = subprocess.Popen(
        [sys.executable, "-m", "oddstui", "replay", str(folder), "--port", "0", "--speed", "1e6"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        base = read_ready(process, READY, 60.0, "oddstui replay")
        params = {"apiKey": "demo", "eventId": "7", "bookmakers": "Bet365", "includeSeq": "true"}
        deadline_seq = None
        for _ in range(200):
            answer = httpx.get(f"{base}/odds", params=params, timeout=10)
            assert answer.status_code == 200, answer.text
            deadline_seq = int(answer.headers["X-Service-Seq"])
            if deadline_seq == last_seq:
                break
            subprocess.run(["sleep", "0.05"], check=True)
        assert deadline_seq == last_seq
        body = answer.json()
        assert body["bookmakers"]["Bet365"][0]["odds"][0]["home"] == f"1.{last_seq}"
    finally:
        terminate(process)
