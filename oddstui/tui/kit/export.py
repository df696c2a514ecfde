"""`e` on a board or table: the rows it holds, as records, written to CSV, JSON or Parquet.

Every board and table supplies its own records (a pure function of its row data, in its own
package: `bets.bet_rows.export_records`, the boards' `*_records`); this one module writes them.
Records are flat dicts of numbers, text and None, the same columns in every format: numbers stay
numbers, times are Unix seconds, ages seconds. Parquet needs pyarrow (the `parquet` extra).
No textual here.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

FORMATS = ("csv", "json", "parquet")
Record = Mapping[str, Any]


class ExportError(Exception):
    """One line: why the rows could not be written."""


def export_name(board: str, fmt: str, when: datetime) -> str:
    """`oddstui-arbitrage-20261121-103000.csv`: sorts by time, never needs quoting in a shell."""
    slug = re.sub(r"[^a-z0-9]+", "-", board.casefold()).strip("-") or "board"
    return f"oddstui-{slug}-{when:%Y%m%d-%H%M%S}.{fmt}"


def columns_of(records: Iterable[Record]) -> list[str]:
    """Every key of the records, in the order first seen (a 3-leg row adds leg3 columns)."""
    seen: dict[str, None] = {}
    for record in records:
        for key in record:
            seen.setdefault(key, None)
    return list(seen)


def export_bytes(records: Sequence[Record], fmt: str) -> bytes:
    """The records as CSV (a header line first), a JSON list of objects, or Parquet."""
    columns = columns_of(records)
    if fmt == "json":
        full = [{column: record.get(column) for column in columns} for record in records]
        return (json.dumps(full, ensure_ascii=False, indent=1) + "\n").encode()
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        for record in records:
            writer.writerow(_csv_cell(record.get(column)) for column in columns)
        return out.getvalue().encode()
    if fmt == "parquet":
        return _parquet(records, columns)
    raise ValueError(f"export format must be one of {', '.join(FORMATS)}")


def _csv_cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value  # numbers as numbers (repr), text as text


def parquet_available() -> bool:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def _parquet(records: Sequence[Record], columns: list[str]) -> bytes:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise ExportError("Parquet needs pyarrow: pip install 'oddstui[parquet]'") from None
    table = (
        pa.Table.from_pylist(
            [{column: record.get(column) for column in columns} for record in records]
        )
        if records
        else pa.table({})
    )
    sink = io.BytesIO()
    pq.write_table(table, sink)
    return sink.getvalue()


def write_records(
    folder: Path, board: str, records: Sequence[Record], fmt: str, when: datetime
) -> Path:
    """Write a new file and return its path; a name already taken gets `-2`, `-3`… (never an
    existing file overwritten: the file is created exclusively)."""
    data = export_bytes(records, fmt)
    name = export_name(board, fmt, when)
    path, counter = folder / name, 2
    while True:
        try:
            with path.open("xb") as handle:
                handle.write(data)
            return path
        except FileExistsError:
            path = folder / name.replace(f".{fmt}", f"-{counter}.{fmt}")
            counter += 1


def cell_records(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> list[dict[str, Any]]:
    """Records from cells, for a table that has no records of its own yet."""
    return [dict(zip(columns, row, strict=True)) for row in rows]
