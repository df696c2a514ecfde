"""`oddstui books --json` over a fixed recording says exactly what it said when the golden file
was written (tests/intel/golden.py): a change made for speed changes no figure."""

from __future__ import annotations

from pathlib import Path

import orjson

from tests.intel.golden import GOLDEN, books_json, build


def test_books_json_over_the_fixed_recording_is_the_golden_one(tmp_path: Path) -> None:
    folder = tmp_path / "rec"
    messages = build(folder)
    golden = orjson.loads(GOLDEN.read_bytes())
    assert golden["summary"]["messages"] == messages > 3000
    assert golden["summary"]["sharpMoves"] > 100 and golden["steam"]  # it measures something
    for workers in ("1", "2"):
        assert books_json(folder, "--workers", workers) == golden, f"--workers {workers}"
