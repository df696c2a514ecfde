"""The session's alerts as data: CSV or JSON, one record per alert, numbers as numbers.
No textual here.

| column | what it holds |
|---|---|
| `at` | when it fired, ISO 8601 in UTC |
| `at_unix` | the same, Unix seconds (a number) |
| `event_id` | the event's id (a number) |
| `event` | the event's name |
| `kind` | goal, status, price, arbitrage, halftime, fulltime, redcard or steam |
| `title` | the toast's title |
| `message` | the toast's text (it names the event) |
| `rule` | the rule that fired, as the rules screen shows it; empty for goals and moments |
| `value` | the price, arbitrage profit % or steam move % that made it fire (a number), or empty |
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from oddstui.tui.alerts.rules import Alert

FORMATS = ("csv", "json")
COLUMNS = ("at", "at_unix", "event_id", "event", "kind", "title", "message", "rule", "value")


class Fired(Protocol):
    """One delivered alert and when (the center's `Firing`)."""

    @property
    def at(self) -> float: ...

    @property
    def alert(self) -> Alert: ...


def alert_records(history: Iterable[Fired]) -> list[dict[str, Any]]:
    records = []
    for fired in history:
        alert = fired.alert
        records.append(
            {
                "at": datetime.fromtimestamp(fired.at, UTC).isoformat().replace("+00:00", "Z"),
                "at_unix": fired.at,
                "event_id": alert.event_id,
                "event": alert.event,
                "kind": alert.kind,
                "title": alert.title,
                "message": alert.message,
                "rule": alert.rule.describe() if alert.rule is not None else "",
                "value": alert.price,
            }
        )
    return records


def alerts_text(records: Sequence[dict[str, Any]], fmt: str) -> str:
    if fmt == "json":
        return json.dumps(list(records), ensure_ascii=False, indent=1) + "\n"
    if fmt != "csv":
        raise ValueError(f"export format must be one of {', '.join(FORMATS)}")
    out = io.StringIO()
    writer = csv.DictWriter(out, COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: "" if v is None else v for k, v in r.items()} for r in records)
    return out.getvalue()


def write_alerts(folder: Path, history: Iterable[Fired], fmt: str, when: datetime) -> Path:
    """`oddstui-alerts-20261121-103000.csv` in `folder`; returns its path."""
    text = alerts_text(alert_records(history), fmt)
    path = folder / f"oddstui-alerts-{when:%Y%m%d-%H%M%S}.{fmt}"
    path.write_text(text, encoding="utf-8")
    return path
