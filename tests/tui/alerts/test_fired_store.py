"""`alerts-fired.toml`: a rule's last firing round-trips; a broken file or entry is skipped
(a lost memory, never a stopped desk); deleted rules' entries are dropped at the next save."""

from __future__ import annotations

from pathlib import Path

from oddstui.tui.alerts.fired_store import LastFired, fired_path, load_fired, save_fired
from oddstui.tui.alerts.rules import ArbitrageRule, PriceRule


def test_last_firings_round_trip_and_deleted_rules_are_dropped(tmp_path: Path) -> None:
    path = fired_path(tmp_path / "alerts.toml")
    kept, gone = PriceRule(7, "ML", "home", 2.1), ArbitrageRule(7, 1.5)
    fired = {
        repr(kept): LastFired(1795891200.5, "price", 2.14),
        repr(gone): LastFired(1.0, "arbitrage"),
    }
    save_fired(path, fired, [kept])
    assert path.name == "alerts-fired.toml"
    assert load_fired(path) == {repr(kept): LastFired(1795891200.5, "price", 2.14)}


def test_a_broken_file_or_entry_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "alerts-fired.toml"
    path.write_bytes(b"\xff not toml")
    assert load_fired(path) == {}
    path.write_text(
        '[[fired]]\nrule = "A"\nat = 5.0\nkind = "price"\nvalue = "x"\n'
        '[[fired]]\nrule = "B"\nat = "soon"\nkind = "price"\n'
        '[[fired]]\nrule = "C"\nat = 1' + "0" * 400 + '\nkind = "steam"\n'
    )
    assert load_fired(path) == {"A": LastFired(5.0, "price", None)}
