"""`oddstui replay`'s feed: recorded seqs, a `lastSeq` resume as on a live service, and a
position from before the recording gets `resync_required`."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from tests.recording.test_cli_input import write_recording
from tests.serving import READY, read_ready, terminate

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def replay(tmp_path: Path) -> Iterator[str]:
    folder = tmp_path / "r"
    write_recording(folder)  # seqs 101..120, one every 360 recorded seconds
    process = subprocess.Popen(
        [sys.executable, "-m", "oddstui", "replay", str(folder), "--port", "0", "--speed", "1800"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        yield read_ready(process, READY, 60.0, "oddstui replay")
    finally:
        terminate(process)


def feed(base: str, last_seq: int | None = None) -> str:
    url = base.replace("http://", "ws://") + "/ws?apiKey=demo&markets=ML"
    return url if last_seq is None else f"{url}&lastSeq={last_seq}"


def messages(ws: object, count: int) -> list[dict[str, object]]:
    found: list[dict[str, object]] = []
    while len(found) < count:
        for line in ws.recv(timeout=30).splitlines():  # type: ignore[attr-defined]
            found.append(json.loads(line))
    return found


def seq_now(base: str) -> int:
    params = {"apiKey": "demo", "eventId": "7", "bookmakers": "Bet365", "includeSeq": "true"}
    return int(httpx.get(f"{base}/odds", params=params, timeout=10).headers["X-Service-Seq"])


def test_resume_with_last_seq_and_too_old(replay: str) -> None:
    with connect(feed(replay)) as ws:
        first = messages(ws, 3)
    assert first[0]["type"] == "welcome" and first[0]["replay"]["speed"] == 1800  # type: ignore[index]
    odds = [m for m in first[1:] if m["type"] == "updated"]
    assert odds, first
    held = int(odds[-1]["seq"])  # type: ignore[arg-type]
    deadline = time.monotonic() + 30
    while seq_now(replay) < held + 3:  # the replay moves on while we are away
        assert time.monotonic() < deadline, "the replay did not move on"
        time.sleep(0.05)
    with connect(feed(replay, held)) as ws:
        welcome, resumed = messages(ws, 2)[:2]
    assert welcome["type"] == "welcome"
    assert resumed["type"] == "updated" and int(resumed["seq"]) > held + 2  # type: ignore[arg-type]
    # Compacted: the one pair's latest message, its price that of its seq.
    markets = resumed["markets"]
    assert markets[0]["odds"][0]["home"] == f"1.{resumed['seq']}"  # type: ignore[index]
    with connect(feed(replay, 50)) as ws:  # before the recording's first message
        welcome, answer = messages(ws, 2)[:2]
    assert answer["type"] == "resync_required"


def test_a_gap_in_the_recording_is_resync_required_after_its_snapshot(tmp_path: Path) -> None:
    from oddstui.recording.writer import RecordingWriter
    from tests.recording.test_cli_input import EVENT, T0, ml

    now = [T0]
    writer = RecordingWriter(
        tmp_path / "r", source="s", markets=["ML"], bookmakers=["Bet365"], clock=lambda: now[0]
    )
    writer.snapshot([EVENT], [{**EVENT, "bookmakers": {"Bet365": ml("1.100")}, "urls": {}}])

    def message(seq: int, at: float) -> None:
        now[0] = at
        body = {
            "type": "updated",
            "seq": seq,
            "id": 7,
            "bookie": "Bet365",
            "markets": ml(f"1.{seq}"),
        }
        writer.message(seq, body)

    start = T0 + 7200  # four wall seconds at 1800x: time to connect
    for seq in range(101, 104):
        message(seq, start + seq - 101)
    now[0] = start + 10
    writer.gap(103, "resync required: lastSeq too old")
    now[0] = start + 20
    writer.snapshot([EVENT], [{**EVENT, "bookmakers": {"Bet365": ml("1.777")}, "urls": {}}])
    for seq in range(150, 153):
        message(seq, start + 30 + seq - 150)
    writer.close()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "oddstui",
            "replay",
            str(tmp_path / "r"),
            "--port",
            "0",
            "--speed",
            "1800",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        base = read_ready(process, READY, 60.0, "oddstui replay")
        with connect(feed(base)) as ws:
            seen = messages(ws, 8)
    finally:
        terminate(process)
    kinds = [(m["type"], m.get("seq")) for m in seen]
    assert kinds[1:] == [
        ("updated", 101),
        ("updated", 102),
        ("updated", 103),
        ("resync_required", 103),
        ("updated", 150),
        ("updated", 151),
        ("updated", 152),
    ], kinds
