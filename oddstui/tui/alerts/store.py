"""The alert rules on disk: `alerts.toml` next to the watchlist, written atomically.

A file that cannot be used (bad bytes, bad TOML, the wrong shape) is set aside as `.bak` by
`load_rules_recovering`, so the next save cannot overwrite what the user wrote. The file's shape
is `book.alert_rules_file` (a backtest reads the same file).
"""

from __future__ import annotations

from pathlib import Path

import tomli_w

from oddstui import config
from oddstui.book.alert_rules_file import rules_from_toml, rules_to_toml
from oddstui.tui.alerts.rules import AlertRules


def rules_path(watchlist_path: Path) -> Path:
    """The rules live next to the watchlist they belong to."""
    return watchlist_path.with_name(config.ALERT_RULES_FILE)


def load_rules(path: Path) -> AlertRules:
    """The saved rules; a missing file is none, a broken one a `config.ConfigError`."""
    raw = config.read_toml(path)
    try:
        return rules_from_toml(raw)
    except ValueError as error:
        raise config.ConfigError(f"{path}: a broken alert rule ({error})") from None


def load_rules_recovering(path: Path) -> tuple[AlertRules, str | None]:
    """The rules for the desk: an unusable file is kept as `.bak` (so the next save cannot
    overwrite it), no rules are used, and one line says so."""
    try:
        return load_rules(path), None
    except config.ConfigError as error:
        return AlertRules(), config.set_aside(path, error)


def save_rules(rules: AlertRules, path: Path) -> None:
    config.write_atomic(path, tomli_w.dumps(rules_to_toml(rules)).encode())
