"""`oddstui books` as a user runs it: JSON with the issue's shape, a table, bad input one line
and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.backtest.built import ml, snapshot, updated, write_recording
from tests.backtest.test_backtest_command import _one_line, oddstui


@pytest.fixture()
def recording(tmp_path: Path) -> Path:
    """One line, the sharp books moving at 100 s, Soft following 8 s later, Late never."""
    books = {"Pinnacle": [ml(2.0, 1.9)], "SingBet": [ml(2.0, 1.9)], "Soft": [ml(1.95, 1.85)],
             "Late": [ml(1.95, 1.85)]}
    records = [
        snapshot(0.0, {7: books}),
        updated(100.0, 1, 7, "Pinnacle", [ml(1.8, 2.1)]),
        updated(100.2, 2, 7, "SingBet", [ml(1.8, 2.1)]),
        updated(108.0, 3, 7, "Soft", [ml(1.75, 2.05)]),
        updated(200.0, 4, 7, "Pinnacle", [ml(1.8, 2.1)]),
    ]
    folder = tmp_path / "rec"
    write_recording(folder, records)
    return folder


def test_books_json_has_the_issues_shape(recording: Path, tmp_path: Path) -> None:
    done = oddstui("books", str(recording), "--json", "--workers", "1", home=tmp_path)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert set(data) == {"bookmakers", "steam", "summary"}
    books = {b["bookmaker"]: b for b in data["bookmakers"]}
    soft = books["Soft"]
    assert soft["lagSeconds"]["median"] == pytest.approx(8.0)
    assert soft["lagSeconds"]["n"] == 1 and soft["lagSeconds"]["resolution"] == 0.1
    assert books["Late"]["lagSeconds"] == {**books["Late"]["lagSeconds"], "median": None,
                                           "n": 0, "censored": 1}
    for key in ("ledShare", "updatesPerHour", "marginPct", "cluster", "staleLifeSeconds"):
        assert key in soft
    assert data["summary"]["sharpMoves"] == 1 and data["summary"]["messages"] == 4


def test_books_table_and_bad_input(recording: Path, tmp_path: Path) -> None:
    done = oddstui("books", str(recording), "--workers", "1", home=tmp_path)
    assert done.returncode == 0 and "Soft" in done.stdout and "lag med" in done.stdout
    for flag, value in (("--theta", "2"), ("--tau", "-1"), ("--k", "1"), ("--workers", "0"),
                        ("--horizon", "nan")):
        line = _one_line(oddstui("books", str(recording), flag, value, home=tmp_path))
        assert flag in line
    assert "nope" in _one_line(oddstui("books", str(tmp_path / "nope"), home=tmp_path))


def test_serve_truth_to_a_path_that_cannot_be_written_is_one_line(tmp_path: Path) -> None:
    target = tmp_path / "no-such-folder" / "truth.json"
    line = _one_line(oddstui("serve", "--port", "0", "--truth", str(target), home=tmp_path))
    assert "--truth" in line and "no-such-folder" in line


def test_shared_among_workers_the_figures_are_the_one_process_figures(tmp_path: Path) -> None:
    """Four events, each moved by the sharp books and followed at its own lag (one follower
    copying another): two processes, merged, say exactly what one says."""
    from oddstui.backtest.books import books_of_recording
    from oddstui.intel.report import to_json

    books = {name: [ml(2.0, 1.9)] for name in ("Pinnacle", "SingBet", "Soft", "Copy", "Late")}
    records: list = [snapshot(0.0, {event_id: books for event_id in range(1, 5)})]
    seq = 0
    for event_id in range(1, 5):
        t0 = event_id * 100.0
        for bookie, dt, prices in (("Pinnacle", 0.0, (1.8, 2.1)), ("SingBet", 0.1, (1.8, 2.1)),
                                   ("Soft", 2.0 * event_id, (1.75, 2.05)),
                                   ("Copy", 2.0 * event_id + 1.0, (1.7, 2.0))):
            seq += 1
            records.append(updated(t0 + dt, seq, event_id, bookie, [ml(*prices)]))
    records.append(updated(900.0, seq + 1, 1, "Pinnacle", [ml(1.8, 2.1)]))
    folder = tmp_path / "rec"
    write_recording(folder, records)
    one, two = books_of_recording(folder, workers=1), books_of_recording(folder, workers=2)
    assert one.report.sharp_moves == 4
    assert to_json(one.report, one.engine) == to_json(two.report, two.engine)
    soft = next(b for b in one.report.books if b.bookmaker == "Soft")
    assert soft.follows == 4 and soft.lag_median == pytest.approx(4.0)  # lags 2, 4, 6, 8
