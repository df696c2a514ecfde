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


def test_the_suspect_profit_threshold_is_read_and_checked(home: Path) -> None:
    assert config.load_settings().suspect_profit == 15.0
    (home / "config.toml").write_text("suspect_profit = 8\n")
    assert config.load_settings().suspect_profit == 8.0
    (home / "config.toml").write_text("suspect_profit = -1\n")
    with pytest.raises(config.ConfigError, match="suspect_profit"):
        config.load_settings()
