"""When each alert rule last fired, kept across sessions in `alerts-fired.toml` beside
`alerts.toml`. No textual.

A file of its own, not fields of `alerts.toml`: the rules file is the trader's (and `oddstui
backtest` reads it), and it should not be rewritten each time a rule fires. Each entry names its
rule by the rule's `repr` (its kind and every field): a rule edited since is another rule and
starts at `never`. A file that cannot be read is only a lost memory: it is ignored (and
overwritten at the next firing), the rules still work.

```toml
[[fired]]
rule = "PriceRule(event_id=7, market='ML', side='home', threshold=2.1, above=True, ...)"
at = 1795891200.0     # Unix seconds
kind = "price"
value = 2.14          # the price, profit % or move %; absent when none
```
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomli_w

from oddstui import config

FIRED_FILE = "alerts-fired.toml"


@dataclass(frozen=True, slots=True)
class LastFired:
    """A rule's last firing: when (Unix time), what kind of alert, and its price or percent."""

    at: float
    kind: str
    value: float | None = None


def fired_path(rules_path: Path) -> Path:
    return rules_path.with_name(FIRED_FILE)


def load_fired(path: Path) -> dict[str, LastFired]:
    """Rule (its `repr`) -> its last firing; an unreadable file or entry is skipped."""
    try:
        raw = config.read_toml(path)
    except config.ConfigError:
        return {}
    entries = raw.get("fired", [])
    found: dict[str, LastFired] = {}
    for entry in entries if isinstance(entries, list) else []:
        last = _entry(entry)
        if last is not None:
            found[entry["rule"]] = last
    return found


def save_fired(path: Path, fired: Mapping[str, LastFired], rules: Iterable[object]) -> None:
    """The last firings of `rules` (those of deleted rules are dropped), written atomically."""
    entries = []
    for key in sorted({repr(rule) for rule in rules} & set(fired)):
        last = fired[key]
        entry: dict[str, Any] = {"rule": key, "at": last.at, "kind": last.kind}
        if last.value is not None:
            entry["value"] = last.value
        entries.append(entry)
    config.write_atomic(path, tomli_w.dumps({"fired": entries}).encode())


def _entry(entry: Any) -> LastFired | None:
    if not isinstance(entry, dict):
        return None
    rule, kind = entry.get("rule"), entry.get("kind")
    at = _number(entry.get("at"))
    if not isinstance(rule, str) or not isinstance(kind, str) or at is None:
        return None
    return LastFired(at, kind, _number(entry.get("value")))


def _number(value: Any) -> float | None:
    """A finite number from the file, else None."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return None
    try:
        number = float(value)
    except OverflowError:  # a TOML integer too large for a float
        return None
    return number if math.isfinite(number) else None
