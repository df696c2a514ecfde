"""`e` on a board: what it shows, written to CSV or JSON in the working folder. No textual here."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

FORMATS = ("csv", "json")


def export_name(board: str, fmt: str, when: datetime) -> str:
    """`oddstui-arbitrage-20261121-103000.csv`: sorts by time, never needs quoting in a shell."""
    slug = re.sub(r"[^a-z0-9]+", "-", board.casefold()).strip("-") or "board"
    return f"oddstui-{slug}-{when:%Y%m%d-%H%M%S}.{fmt}"


def export_text(columns: Sequence[str], rows: Sequence[Sequence[str]], fmt: str) -> str:
    """The rows as CSV (a header line first) or as a JSON list of objects keyed by column."""
    if fmt == "json":
        records = [dict(zip(columns, row, strict=True)) for row in rows]
        return json.dumps(records, ensure_ascii=False, indent=1) + "\n"
    if fmt != "csv":
        raise ValueError(f"export format must be one of {', '.join(FORMATS)}")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows(rows)
    return out.getvalue()


def write_export(
    folder: Path,
    board: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    fmt: str,
    when: datetime,
) -> Path:
    """Write a new file and return its path; a name already taken gets `-2`, `-3`… (never an
    existing file overwritten: the file is created exclusively)."""
    text = export_text(columns, rows, fmt)
    name = export_name(board, fmt, when)
    path, counter = folder / name, 2
    while True:
        try:
            with path.open("x", encoding="utf-8", newline="") as handle:
                handle.write(text)
            return path
        except FileExistsError:
            path = folder / name.replace(f".{fmt}", f"-{counter}.{fmt}")
            counter += 1
