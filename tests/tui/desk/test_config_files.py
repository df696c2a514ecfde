"""The watchlist and settings files: round trip, and a corrupt file set aside as `.bak`."""

from __future__ import annotations

from pathlib import Path

import pytest

from oddstui import config


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(config.HOME_ENV, str(tmp_path))
    return tmp_path


def test_watchlist_round_trip(home: Path) -> None:
    items = [
        config.WatchedEvent(7, "Bodø/Glimt", "[bold]X", "football", "Norway", "2026-11-21T13:00Z"),
        config.WatchedEvent(9),
    ]
    config.save_watchlist(items)
    assert config.watchlist_path().parent == home
    assert config.load_watchlist() == items


def test_missing_watchlist_is_empty() -> None:
    assert config.load_watchlist() == []


@pytest.mark.parametrize(
    "content",
    [
        "this is not toml [[[",
        "event = 3",
        "[[event]]\nid = 'seven'",
        "[[event]]\nid = 1\nhome = 5",
    ],
)
def test_corrupt_watchlist_is_kept_as_bak(home: Path, content: str) -> None:
    path = config.watchlist_path()
    path.write_text(content)
    watched, warning = config.load_watchlist_recovering()
    assert watched == []
    assert warning is not None and "\n" not in warning
    assert "watchlist.toml.bak" in warning
    assert not path.exists()
    assert (home / "watchlist.toml.bak").read_text() == content


def test_corrupt_config_is_kept_as_bak(home: Path) -> None:
    path = config.config_path()
    path.write_text("odds_format = 'decimal\n[[")
    settings, warning = config.load_settings_recovering()
    assert settings.odds_format == "decimal"
    assert warning is not None and "not valid TOML" in warning and "\n" not in warning
    assert (home / "config.toml.bak").exists()


def test_bad_config_value_is_named_and_the_file_kept(home: Path) -> None:
    path = config.config_path()
    path.write_text("odds_format = 'roman'")
    with pytest.raises(config.ConfigError, match="'odds_format' must be one of"):
        config.load_settings_recovering()
    assert path.exists() and not (home / "config.toml.bak").exists()


def test_good_config_gives_no_warning(home: Path) -> None:
    config.config_path().write_text("odds_format = 'american'")
    settings, warning = config.load_settings_recovering()
    assert (settings.odds_format, warning) == ("american", None)


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b'x = "a\n\xff', "not UTF-8 text"),
        (b"x = " + b"[" * 5000, "nested too deep"),
        (b"x = " + b"1" * 5000, "too long a number"),
    ],
)
def test_config_that_cannot_be_parsed_is_kept_as_bak(
    home: Path, content: bytes, reason: str
) -> None:
    config.config_path().write_bytes(content)
    settings, warning = config.load_settings_recovering()
    assert settings == config.Settings()
    assert warning is not None and reason in warning and "\n" not in warning
    assert (home / "config.toml.bak").read_bytes() == content


def test_an_older_backup_is_not_overwritten(home: Path) -> None:
    (home / "watchlist.toml.bak").write_text("the first backup")
    config.watchlist_path().write_bytes(b"\xff\xfe")
    _, warning = config.load_watchlist_recovering()
    assert warning is not None and "watchlist.toml.bak.2" in warning
    assert (home / "watchlist.toml.bak").read_text() == "the first backup"
    assert (home / "watchlist.toml.bak.2").read_bytes() == b"\xff\xfe"


def test_a_directory_in_place_of_a_file_is_left_alone(home: Path) -> None:
    config.config_path().mkdir()
    settings, warning = config.load_settings_recovering()
    assert settings == config.Settings()
    assert warning is not None and "cannot be read" in warning and "left as it is" in warning
    assert config.config_path().is_dir()
    with pytest.raises(OSError):
        config.save_settings(settings)  # saving fails (the settings screen reports it)
    assert config.config_path().is_dir()


def test_an_unreadable_file_is_moved_aside_before_anything_can_overwrite_it(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Tests run as root here, where chmod 000 still reads: the OS refusal is simulated instead.
    path = config.watchlist_path()
    path.write_text("[[event]]\nid = 7\n")
    real_read = Path.read_bytes

    def refuse(self: Path) -> bytes:
        if self == path:
            raise PermissionError(13, "Permission denied", str(self))
        return real_read(self)

    monkeypatch.setattr(Path, "read_bytes", refuse)
    watched, warning = config.load_watchlist_recovering()
    assert watched == []
    assert warning is not None and "Permission denied" in warning and "\n" not in warning
    assert (home / "watchlist.toml.bak").read_text() == "[[event]]\nid = 7\n"
    config.save_watchlist([config.WatchedEvent(9)])
    assert (home / "watchlist.toml.bak").read_text() == "[[event]]\nid = 7\n"


@pytest.mark.parametrize(
    "content",
    ["bankroll = nan", "bankroll = inf", "bankroll = 1" + "0" * 400, "exchange_commission = 1"],
)
def test_numbers_a_float_cannot_use_are_bad_values(content: str) -> None:
    config.config_path().write_text(content)
    with pytest.raises(config.ConfigError, match="must be"):
        config.load_settings()


def test_the_exchange_commission_is_read(home: Path) -> None:
    config.config_path().write_text("exchange_commission = 0.02")
    assert config.load_settings().exchange_commission == 0.02
    assert config.Settings().exchange_commission == 0.05
def test_the_suspect_profit_threshold_is_read_and_checked(home: Path) -> None:
    assert config.load_settings().suspect_profit == 10.0
    (home / "config.toml").write_text("suspect_profit = 8\n")
    assert config.load_settings().suspect_profit == 8.0
    (home / "config.toml").write_text("suspect_profit = -1\n")
    with pytest.raises(config.ConfigError, match="suspect_profit"):
        config.load_settings()


@pytest.mark.parametrize("name", ["stale_live", "stale_prematch"])
@pytest.mark.parametrize("bad", ["0", "-5", "inf", "nan", '"90"', "true"])
def test_the_stale_ages_are_read_and_checked(home: Path, name: str, bad: str) -> None:
    (home / "config.toml").write_text(f"{name} = 45\n")
    assert getattr(config.load_settings(), name) == 45.0
    (home / "config.toml").write_text(f"{name} = {bad}\n")
    with pytest.raises(config.ConfigError, match=f"'{name}' must be a positive number of seconds"):
        config.load_settings()


@pytest.mark.parametrize(
    "bad",
    ['"ML"', "[]", '["ML", 3]', '["ML", "ml"]', '["ML", ""]', '["ML,Totals"]', '["M\\u001bL"]']
    + [str([f"Market {i}" for i in range(21)]).replace("'", '"')],
)
def test_the_feed_markets_are_read_and_checked(home: Path, bad: str) -> None:
    assert config.load_settings().feed_markets is None
    (home / "config.toml").write_text('feed_markets = ["ML", "Bookings Spread"]\n')
    assert config.load_settings().feed_markets == ["ML", "Bookings Spread"]
    (home / "config.toml").write_text(f"feed_markets = {bad}\n")
    rule = "'feed_markets' must be a list of 1 to 20 different market names"
    with pytest.raises(config.ConfigError, match=rule):
        config.load_settings()
