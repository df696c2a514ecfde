"""Each table's sort and hidden columns, kept across restarts in `tables.toml`.

The file sits next to the watchlist (the desk's data folder), is written atomically like the
settings, and a broken one is set aside as `.bak` so the desk still starts.

    [live]
    sort = "clock"
    descending = true
    hidden = ["periods"]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w

from oddstui import config


@dataclass(frozen=True, slots=True)
class TablePrefs:
    """What the user chose for one table: the sort column (None: the screen's own order), its
    direction, and the columns they hid."""

    sort: str | None = None
    descending: bool = False
    hidden: frozenset[str] = field(default_factory=frozenset)

    def to_toml(self) -> dict[str, Any]:
        document: dict[str, Any] = {"descending": self.descending, "hidden": sorted(self.hidden)}
        if self.sort is not None:
            document["sort"] = self.sort
        return document


def _parse(name: str, raw: Any, path: Path) -> TablePrefs:
    if not isinstance(raw, dict):
        raise config.ConfigError(f"{path}: [{name}] must be a table")
    sort, descending, hidden = raw.get("sort"), raw.get("descending", False), raw.get("hidden", [])
    if sort is not None and not isinstance(sort, str):
        raise config.ConfigError(f"{path}: [{name}] 'sort' must be a column name")
    if not isinstance(descending, bool):
        raise config.ConfigError(f"{path}: [{name}] 'descending' must be true or false")
    if not isinstance(hidden, list) or not all(isinstance(item, str) for item in hidden):
        raise config.ConfigError(f"{path}: [{name}] 'hidden' must be a list of column names")
    return TablePrefs(sort, descending, frozenset(hidden))


def load_table_prefs(path: Path) -> dict[str, TablePrefs]:
    """Every table's prefs from `path` (missing file: none); a bad file is a ConfigError."""
    return {name: _parse(name, raw, path) for name, raw in config.read_toml(path).items()}


class TablePrefsStore:
    """The prefs of every table, read once and written whenever one changes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        #: One line when the file was unusable and set aside, for a startup toast; else None.
        self.warning: str | None = None
        try:
            self._prefs = load_table_prefs(path)
        except config.ConfigError as error:
            self._prefs = {}
            self.warning = _set_aside(path, error)

    def get(self, table: str) -> TablePrefs:
        return self._prefs.get(table, TablePrefs())

    def put(self, table: str, prefs: TablePrefs) -> None:
        """Keep `prefs` for `table` and write the file (an unwritable file raises OSError)."""
        if self._prefs.get(table) == prefs:
            return
        self._prefs[table] = prefs
        document = {name: item.to_toml() for name, item in sorted(self._prefs.items())}
        config.write_atomic(self.path, tomli_w.dumps(document).encode())


def _set_aside(path: Path, error: config.ConfigError) -> str:
    try:
        backup = config.quarantine(path)
    except OSError as move_error:
        return f"{error}; table choices not kept ({move_error.strerror})"
    return f"{error}; kept as {backup.name}, tables start with their defaults"
