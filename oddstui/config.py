"""Settings, the API key and where they live: TOML under platformdirs, written atomically.

`ODDSTUI_HOME` points every path at one folder (tests use it); otherwise the config lives under
the platform's config directory and the watchlist under its data directory.
"""

from __future__ import annotations

import math
import os
import tempfile
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import platformdirs
import tomli_w

from oddstui.seed_markets import MAX_FEED_MARKETS

#: A commission the trader has not set: the common base rate on an exchange's winnings.
DEFAULT_COMMISSION = 0.05

APP_NAME = "oddstui"
PUBLIC_BASE_URL = "https://api.odds-api.io/v3"
KEY_ENV = "ODDSTUI_API_KEY"
HOME_ENV = "ODDSTUI_HOME"
#: Set by `oddstui web` in each tab's desk: the desk is in a browser (its footer shows the keys
#: that stand in for those the browser keeps, such as ctrl+p).
WEB_ENV = "ODDSTUI_WEB"
#: A file the desk writes its current screen to, as JSON, on every change (the browser tests
#: read it: in a browser the terminal is drawn on a canvas).
STATE_FILE_ENV = "ODDSTUI_STATE_FILE"
ODDS_FORMATS = ("decimal", "american", "fractional")


class ConfigError(Exception):
    """A config or data file that cannot be used; one line naming the file and the problem."""


class ConfigCorrupt(ConfigError):
    """The file is not TOML at all: it can be set aside without losing a setting we understood."""


class ConfigUnreadable(ConfigError):
    """The path is there but cannot be read: a directory in its place, or no permission."""


def config_dir() -> Path:
    home = os.environ.get(HOME_ENV)
    return Path(home) if home else Path(platformdirs.user_config_dir(APP_NAME))


def data_dir() -> Path:
    home = os.environ.get(HOME_ENV)
    return Path(home) if home else Path(platformdirs.user_data_dir(APP_NAME))


def config_path() -> Path:
    return config_dir() / "config.toml"


@dataclass(slots=True)
class Settings:
    """The user's settings; every field is optional in the file."""

    api_key: str | None = None
    base_url: str | None = None
    odds_format: str = "decimal"
    theme: str = "oddstui-dark"
    slow_link: bool = False
    bankroll: float = 1000.0
    kelly_fraction: float = 0.25
    #: The largest Kelly stake as a share of the bankroll (0.02: 20 on a bankroll of 1,000): a
    #: big edge is more often a price not yet moved than a gift.
    kelly_cap: float = 0.02
    desktop_notifications: bool = False
    exchange_commission: float = DEFAULT_COMMISSION  # on an exchange's winnings, 0.05 is 5 %
    #: Percent: an arbitrage or value edge above this is marked suspect on the boards.
    suspect_profit: float = 10.0
    #: Seconds: a price unchanged for longer is dimmed as stale, in play and before kick-off.
    stale_live: float = 90.0
    stale_prematch: float = 1800.0
    #: Markets the Event screen shows beside the one stepped through (None: the sport's main).
    event_markets: list[str] | None = None
    #: Markets the desk's feed subscribes to, at most 20 (None: every sport's main and the
    #: most traded, `FEED_MARKETS`).
    feed_markets: list[str] | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # sections we keep but do not interpret

    def __repr__(self) -> str:
        # The key must never reach a log or a traceback.
        shown = "set" if self.api_key else "unset"
        return (
            f"Settings(api_key=<{shown}>, base_url={self.base_url!r}, "
            f"odds_format={self.odds_format!r})"
        )


_CHECKS: dict[str, tuple[type | tuple[type, ...], str]] = {
    "api_key": (str, "a string"),
    "base_url": (str, "a string"),
    "odds_format": (str, "one of " + ", ".join(ODDS_FORMATS)),
    "theme": (str, "a string"),
    "slow_link": (bool, "true or false"),
    "bankroll": ((int, float), "a positive number"),
    "kelly_fraction": ((int, float), "a number above 0 and at most 1"),
    "kelly_cap": ((int, float), "a share of the bankroll above 0 and at most 1 (0.02 for 2 %)"),
    "desktop_notifications": (bool, "true or false"),
    "exchange_commission": ((int, float), "a number at least 0 and below 1 (0.05 for 5 %)"),
    "suspect_profit": ((int, float), "a positive number of percent"),
    "stale_live": ((int, float), "a positive number of seconds"),
    "stale_prematch": ((int, float), "a positive number of seconds"),
    "event_markets": (list, "a list of market names"),
    "feed_markets": (list, f"a list of 1 to {MAX_FEED_MARKETS} different market names"),
}


def _validate(name: str, value: Any, path: Path) -> Any:
    kind, rule = _CHECKS[name]
    bad = not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool)
    if not bad and name in _NUMBERS:
        try:
            value = float(value)
        except OverflowError:  # a TOML integer too large for a float
            bad = True
    if not bad and name == "odds_format":
        bad = value not in ODDS_FORMATS
    if not bad and name in ("bankroll", "suspect_profit", "stale_live", "stale_prematch"):
        bad = not (0 < value < math.inf)  # NaN and inf are refused too
    if not bad and name in ("kelly_fraction", "kelly_cap"):
        bad = not 0 < value <= 1
    if not bad and name == "event_markets":
        bad = not all(isinstance(item, str) for item in value)
    if not bad and name == "feed_markets":
        names = [item.strip().casefold() for item in value if isinstance(item, str)]
        bad = (
            len(names) != len(value)
            or not 0 < len(set(names)) == len(names) <= MAX_FEED_MARKETS
            or not all(name.isprintable() and "," not in name for name in names)
            or "" in names
        )
    if not bad and name == "exchange_commission":
        bad = not 0 <= value < 1
    if bad:
        raise ConfigError(f"{path}: '{name}' must be {rule}")
    return value


_NUMBERS = (
    "bankroll",
    "kelly_fraction",
    "kelly_cap",
    "exchange_commission",
    "suspect_profit",
    "stale_live",
    "stale_prematch",
)


def read_toml(path: Path) -> dict[str, Any]:
    """Read a TOML file; a missing file is empty, anything else unusable a ConfigError."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise ConfigUnreadable(f"{path}: cannot be read ({error.strerror or error})") from None
    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise ConfigCorrupt(f"{path}: not UTF-8 text (a bad byte at {error.start})") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigCorrupt(f"{path}: not valid TOML ({error})") from None
    except (RecursionError, ValueError):
        # tomllib recurses per nesting level and int() refuses numbers over 4,300 digits.
        reason = "nested too deep or too long a number"
        raise ConfigCorrupt(f"{path}: not valid TOML ({reason})") from None


def load_settings(path: Path | None = None) -> Settings:
    path = path or config_path()
    raw = read_toml(path)
    settings = Settings()
    known = {f.name for f in fields(Settings)} - {"extra"}
    for name, value in raw.items():
        if name in known:
            setattr(settings, name, _validate(name, value, path))
        else:
            settings.extra[name] = value
    return settings


def save_settings(settings: Settings, path: Path | None = None) -> None:
    path = path or config_path()
    document: dict[str, Any] = dict(settings.extra)
    for item in fields(Settings):
        value = getattr(settings, item.name)
        if item.name != "extra" and value is not None:
            document[item.name] = value
    write_atomic(path, tomli_w.dumps(document).encode())


def write_atomic(path: Path, data: bytes) -> None:
    """Write through a temporary file and a rename, so a crash never leaves half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def quarantine(path: Path) -> Path:
    """Move an unusable file aside as `<name>.bak` (or `.bak.2`, ... so an older backup is kept);
    returns the backup."""
    backup = path.with_name(path.name + ".bak")
    number = 1
    while backup.exists() or backup.is_symlink():
        number += 1
        backup = path.with_name(f"{path.name}.bak.{number}")
    os.replace(path, backup)
    return backup


def resolve_api_key(settings: Settings) -> str | None:
    """The key from the environment, else from the config; empty strings count as none."""
    return os.environ.get(KEY_ENV) or settings.api_key or None


def load_settings_recovering(path: Path | None = None) -> tuple[Settings, str | None]:
    """Settings for the TUI: a file that is not TOML, or not readable, is moved to `.bak` (a
    directory is left where it is) and defaults are used.

    Returns the settings and, when the file was not used, one line saying so. A readable file
    with a bad value still raises ConfigError: the user fixes that one line, nothing is lost.
    """
    path = path or config_path()
    try:
        return load_settings(path), None
    except (ConfigCorrupt, ConfigUnreadable) as error:
        return Settings(), set_aside(path, error)


# The watchlist: starred events, kept with their names so it can be shown before any fetch.


def watchlist_path() -> Path:
    return data_dir() / "watchlist.toml"


ALERT_RULES_FILE = "alerts.toml"
"""The alert rules live next to the watchlist."""


def alert_rules_path() -> Path:
    return watchlist_path().with_name(ALERT_RULES_FILE)


@dataclass(slots=True)
class WatchedEvent:
    """One starred event; the names are what they were when it was starred."""

    id: int
    home: str = ""
    away: str = ""
    sport: str = ""  # sport slug
    league: str = ""  # league name
    start: str = ""  # ISO-8601, as the service sent it

    def to_toml(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "home": self.home,
            "away": self.away,
            "sport": self.sport,
            "league": self.league,
            "start": self.start,
        }


def load_watchlist(path: Path | None = None) -> list[WatchedEvent]:
    """The starred events, in the order they were starred; a broken file is a ConfigError."""
    path = path or watchlist_path()
    raw = read_toml(path)
    entries = raw.get("event", [])
    if not isinstance(entries, list):
        raise ConfigError(f"{path}: 'event' must be an array of tables")
    watched: list[WatchedEvent] = []
    seen: set[int] = set()
    for number, entry in enumerate(entries, 1):
        event_id = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(event_id, int) or isinstance(event_id, bool) or event_id <= 0:
            raise ConfigError(f"{path}: event {number} needs a positive integer 'id'")
        if event_id in seen:
            continue
        seen.add(event_id)
        texts = {key: entry.get(key, "") for key in ("home", "away", "sport", "league", "start")}
        if not all(isinstance(value, str) for value in texts.values()):
            raise ConfigError(f"{path}: event {number} has a name that is not a string")
        watched.append(WatchedEvent(id=event_id, **texts))
    return watched


def save_watchlist(watched: list[WatchedEvent], path: Path | None = None) -> None:
    path = path or watchlist_path()
    document = {"event": [item.to_toml() for item in watched]}
    write_atomic(path, tomli_w.dumps(document).encode())


def load_watchlist_recovering(path: Path | None = None) -> tuple[list[WatchedEvent], str | None]:
    """The watchlist; a corrupt file is moved to `.bak`, an empty list is used, and one line
    says so."""
    path = path or watchlist_path()
    try:
        return load_watchlist(path), None
    except ConfigError as error:
        return [], set_aside(path, error)


def set_aside(path: Path, error: ConfigError) -> str:
    """Keep an unusable file as `.bak` so nothing in it is lost when we next save; one line
    saying what happened. A directory in the file's place is left alone (saves then fail)."""
    if path.is_dir():
        return f"{error}; left as it is, starting afresh"
    try:
        backup = quarantine(path)
    except OSError as move_error:
        return f"{error}; could not keep a backup ({move_error.strerror or move_error})"
    return f"{error}; kept as {backup.name}, starting afresh"
