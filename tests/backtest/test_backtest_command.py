"""`oddstui backtest` and `oddstui export` as a user runs them, on recordings the recorder's
writer made; bad input is one line naming the file, exit 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import zstandard

from oddstui.recording.reader import open_recording
from oddstui.recording.records import FeedMessage, Snapshot
from tests.backtest.built import ml, snapshot, totals, updated, write_recording
from tests.backtest.test_backtest_engine import RECORDS


def oddstui(
    *args: str, home: Path, path_first: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ODDSTUI_HOME": str(home)}
    if path_first is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(path_first), *sys.path])
    return subprocess.run(
        [sys.executable, "-m", "oddstui", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


@pytest.fixture()
def recording(tmp_path: Path) -> Path:
    folder = tmp_path / "rec"
    write_recording(folder, RECORDS)
    return folder


def test_backtest_json_has_the_three_lists(recording: Path, tmp_path: Path) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text(
        '[[price]]\nevent = 1\nmarket = "ML"\nside = "away"\nthreshold = 2.05\n'
        "[[arbitrage]]\nevent = 1\nmin_profit = 1.0\n"
    )
    done = oddstui("backtest", str(recording), "--json", "--alerts", str(rules), home=tmp_path)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["arbitrages"], "the recording holds one arbitrage"
    arb = report["arbitrages"][0]
    assert arb["event"] == "Home 1 v Away 1" and arb["market"] == "ML"
    assert arb["firstSeen"].endswith("01:41.000Z") and arb["durationSeconds"] == 4.0
    assert [(leg["side"], leg["bookmaker"]) for leg in arb["legs"]] == [
        ("home", "BookA"),
        ("away", "BookB"),
    ]
    kinds = [alert["kind"] for alert in report["alerts"]]
    assert "price" in kinds and "arbitrage" in kinds
    price = next(alert for alert in report["alerts"] if alert["kind"] == "price")
    assert price["price"] == 2.10 and price["event"] == "Home 1 v Away 1"
    assert "ML away ≥ 2.05" in price["rule"]
    assert report["value_bets"] and all(v["clvPct"] is not None for v in report["value_bets"])


def test_backtest_table_names_each_section(recording: Path, tmp_path: Path) -> None:
    done = oddstui("backtest", str(recording), home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Alerts (0)" in done.stdout  # no rules file in this home
    assert "Arbitrages (1)" in done.stdout and "home 2 BookA, away 2.1 BookB" in done.stdout
    assert "Value bets (" in done.stdout and "Home 1 v Away 1" in done.stdout


def test_backtest_uses_the_desks_rules_file_by_default(recording: Path, tmp_path: Path) -> None:
    (tmp_path / "alerts.toml").write_text("[[arbitrage]]\nevent = 1\nmin_profit = 0.5\n")
    done = oddstui("backtest", str(recording), "--json", home=tmp_path)
    assert done.returncode == 0, done.stderr
    alerts = json.loads(done.stdout)["alerts"]
    assert [alert["kind"] for alert in alerts] == ["arbitrage", "status"]  # the kick-off


def _one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_bad_recordings_are_one_line_exit_2(recording: Path, tmp_path: Path) -> None:
    (segment,) = recording.glob("*.jsonl.zst")
    manifest = recording / "manifest.json"
    data = json.loads(manifest.read_text())
    for command in (["backtest"], ["export", "--parquet", str(tmp_path / "out")]):
        line = _one_line(oddstui(*command, str(tmp_path / "nothing"), home=tmp_path))
        assert "nothing" in line
        data["version"] = 99
        manifest.write_text(json.dumps(data))
        assert "manifest.json" in _one_line(oddstui(*command, str(recording), home=tmp_path))
        data["version"] = 1
        manifest.write_text(json.dumps(data))
        moved = segment.with_suffix(".moved")
        segment.rename(moved)
        assert segment.name in _one_line(oddstui(*command, str(recording), home=tmp_path))
        moved.rename(segment)


def test_a_corrupt_line_is_one_line_exit_2_and_no_parquet(recording: Path, tmp_path: Path) -> None:
    (segment,) = recording.glob("*.jsonl.zst")
    with segment.open("ab") as file:  # a whole frame whose line is not JSON
        file.write(zstandard.ZstdCompressor().compress(b"not json\n"))
    for command in (
        ["backtest", "--workers", "1"],
        ["backtest", "--workers", "2"],  # the error is met in a worker process
        ["export", "--parquet", str(tmp_path / "out")],
    ):
        assert segment.name in _one_line(oddstui(*command, str(recording), home=tmp_path))
    assert not list((tmp_path / "out").glob("*"))


def test_bad_flags_and_rules_are_one_line_exit_2(recording: Path, tmp_path: Path) -> None:
    line = _one_line(oddstui("backtest", str(recording), "--min-ev", "x", home=tmp_path))
    assert "--min-ev" in line
    for workers in ("0", "9", "two"):
        line = _one_line(oddstui("backtest", str(recording), "--workers", workers, home=tmp_path))
        assert "--workers" in line and repr(workers) in line
    line = _one_line(oddstui("backtest", str(recording), "--alerts", "nope.toml", home=tmp_path))
    assert "nope.toml" in line
    broken = tmp_path / "broken.toml"
    broken.write_text("[[price]]\nevent = -1\n")
    line = _one_line(oddstui("backtest", str(recording), "--alerts", str(broken), home=tmp_path))
    assert "broken.toml" in line
    assert "--parquet" in _one_line(oddstui("export", str(recording), home=tmp_path))


def test_export_without_pyarrow_says_what_to_install(recording: Path, tmp_path: Path) -> None:
    blocked = tmp_path / "blocked"
    (blocked / "pyarrow").mkdir(parents=True)
    (blocked / "pyarrow" / "__init__.py").write_text("raise ImportError('not installed')\n")
    out = tmp_path / "out"
    done = oddstui(
        "export", str(recording), "--parquet", str(out), home=tmp_path, path_first=blocked
    )
    assert "pip install 'oddstui[parquet]'" in _one_line(done)
    assert not out.exists() or not list(out.iterdir())


def test_export_writes_every_price_tick(tmp_path: Path) -> None:
    folder = tmp_path / "rec"
    start = snapshot(100.0, {3: {"BookA": [ml(2.0, 1.8), totals((2.5, 1.9, 1.95))]}})
    change = updated(101.5, 7, 3, "BookA", [ml(2.1, 1.75)])
    write_recording(folder, [start, change])
    done = oddstui("export", str(folder), "--parquet", str(tmp_path / "out"), home=tmp_path)
    assert done.returncode == 0, done.stderr
    table = pq.read_table(tmp_path / "out" / "ticks.parquet")
    rows = table.to_pylist()
    assert rows, "the recording holds prices"
    expected = _ticks(list(open_recording(folder).records()))
    got = [
        (
            row["time"].timestamp(),
            row["seq"],
            row["event_id"],
            row["sport"],
            row["league"],
            row["bookmaker"],
            row["market"],
            row["line"],
            row["side"],
            row["price"],
        )
        for row in rows
    ]
    assert got == expected
    assert rows[0]["updated_at"].isoformat() == "2026-11-21T10:00:00+00:00"
    assert f"{len(rows)} price ticks" in done.stdout


def _ticks(records: list[Snapshot | FeedMessage]) -> list[tuple[object, ...]]:
    """What the export must hold, read straight from the records' JSON."""
    out: list[tuple[object, ...]] = []
    for record in records:
        if isinstance(record, Snapshot):
            items = [
                (None, o["id"], b, ms) for o in record.odds for b, ms in o["bookmakers"].items()
            ]
        else:
            m = record.message
            items = [(record.seq, int(m["id"]), m["bookie"], m["markets"])]
        for seq, event_id, bookie, markets in items:
            for market in markets:
                for line in market["odds"]:
                    for side, price in line.items():
                        if side != "hdp":
                            out.append(
                                (
                                    record.time,
                                    seq,
                                    event_id,
                                    "tennis",
                                    "tennis-league",
                                    bookie,
                                    market["name"],
                                    line.get("hdp"),
                                    side,
                                    price,
                                )
                            )
    return out


def test_commission_and_sharp_flags(tmp_path: Path) -> None:
    exchange = "Betfair Exchange"
    records = [
        snapshot(100.0, {1: {"Pinnacle": [ml(1.90, 1.95)], "BookA": [ml(2.00, 1.80)]}}),
        updated(101.0, 1, 1, exchange, [ml(1.50, 2.04)]),  # no arbitrage net of 5 %
    ]
    folder = tmp_path / "rec"
    write_recording(folder, records)
    (tmp_path / "config.toml").write_text("exchange_commission = 0.05\n")
    netted = json.loads(oddstui("backtest", str(folder), "--json", home=tmp_path).stdout)
    assert netted["arbitrages"] == []  # the desk's setting
    raw = oddstui("backtest", str(folder), "--json", "--commission", "0", home=tmp_path)
    (arb,) = json.loads(raw.stdout)["arbitrages"]
    assert arb["legs"][1] == {"side": "away", "price": 2.04, "bookmaker": exchange}
    assert arb["suspect"] is False and arb["suspectReason"] is None
    for bad in ("1", "-0.1", "five"):
        line = _one_line(oddstui("backtest", str(folder), "--commission", bad, home=tmp_path))
        assert "--commission" in line and repr(bad) in line
    none = oddstui("backtest", str(folder), "--json", "--sharp", "Nobody", home=tmp_path)
    assert json.loads(none.stdout)["value_bets"] == []  # no sharp book: no fair line, no value
    assert "--sharp" in _one_line(oddstui("backtest", str(folder), "--sharp", ",", home=tmp_path))
