"""The one export writer: records to CSV, JSON and Parquet, numbers as numbers, never over an
existing file."""

from __future__ import annotations

import csv
import json
from datetime import datetime
from pathlib import Path

import pytest

from oddstui.tui.kit.export import export_bytes, write_records

WHEN = datetime(2026, 11, 21, 10, 30, 0)
RECORDS = [
    {"eventId": 11, "event": 'A "FC", v B', "leg1Price": 2.1, "leg1Stake": 47.6, "updatedAt": None},
    {"eventId": 12, "event": "Bodø v Ål", "leg1Price": 1.95, "leg1Stake": 51.2, "updatedAt": 1.5,
     "leg3Price": 7.0},
]  # fmt: skip
COLUMNS = ["eventId", "event", "leg1Price", "leg1Stake", "updatedAt", "leg3Price"]


def test_csv_has_every_column_and_numbers_as_numbers(tmp_path: Path) -> None:
    first = write_records(tmp_path, "Arbitrage", RECORDS, "csv", WHEN)
    assert first.name == "oddstui-arbitrage-20261121-103000.csv"
    with first.open(newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == COLUMNS  # a three-leg row adds its columns
    assert rows[1] == ["11", 'A "FC", v B', "2.1", "47.6", "", ""]
    assert rows[2] == ["12", "Bodø v Ål", "1.95", "51.2", "1.5", "7.0"]
    second = write_records(tmp_path, "Arbitrage", RECORDS, "csv", WHEN)
    assert second.name == "oddstui-arbitrage-20261121-103000-2.csv"
    assert first.read_text() == second.read_text()


def test_json_keeps_types_and_fills_missing_columns(tmp_path: Path) -> None:
    path = write_records(tmp_path, "Value bets", RECORDS, "json", WHEN)
    assert path.name == "oddstui-value-bets-20261121-103000.json"
    loaded = json.loads(path.read_text())
    assert [list(record) for record in loaded] == [COLUMNS, COLUMNS]
    assert loaded[0]["leg1Price"] == 2.1 and loaded[0]["eventId"] == 11
    assert loaded[0]["leg3Price"] is None and loaded[1]["updatedAt"] == 1.5


def test_parquet_when_pyarrow_is_installed(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    path = write_records(tmp_path, "Bets", RECORDS, "parquet", WHEN)
    table = pq.read_table(path)
    assert table.column_names == COLUMNS
    assert table.column("leg1Price").to_pylist() == [2.1, 1.95]
    assert table.column("eventId").to_pylist() == [11, 12]


def test_no_rows_is_a_header_only_file() -> None:
    assert export_bytes([], "csv") == b"\n"
    assert json.loads(export_bytes([], "json")) == []
    with pytest.raises(ValueError, match="csv, json, parquet"):
        export_bytes(RECORDS, "xml")
