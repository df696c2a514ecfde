"""keys.toml remaps the desk's bindings by id: read and checked (pure), then driven for real."""

from __future__ import annotations

import re
from pathlib import Path

from oddstui.tui.boards.arbitrage.arb_screen import ArbitrageScreen
from oddstui.tui.browse.live import LiveScreen
from oddstui.tui.kit.help_modal import HelpModal
from oddstui.tui.kit.keymap import binding_ids, is_key, keys_path, load_keymap
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, wait_for
from tests.tui.screen_text import screen_text


def test_every_binding_id_is_known_and_a_missing_file_is_no_keymap(home: Path) -> None:
    ids = binding_ids()
    assert {"screen-arbitrage", "board-sort", "table-sort", "help", "grid-cursor-down"} <= ids
    assert keys_path() == home / "keys.toml"
    assert load_keymap() == ({}, None)


def test_a_keymap_is_read_by_id(tmp_path: Path) -> None:
    path = tmp_path / "keys.toml"
    path.write_text('screen-arbitrage = "x"\nhelp = "f1, question_mark"\n', encoding="utf-8")
    assert load_keymap(path) == ({"screen-arbitrage": "x", "help": "f1,question_mark"}, None)


def test_bad_entries_are_named_in_one_line_and_the_good_ones_apply(tmp_path: Path) -> None:
    path = tmp_path / "keys.toml"
    path.write_text('nosuch = "x"\nhelp = 3\nquit = "a b"\nsearch = "f2"\n', encoding="utf-8")
    keymap, warning = load_keymap(path)
    assert keymap == {"search": "f2"}
    assert warning is not None and "\n" not in warning
    assert "'nosuch' is not the id of a key binding (and 2 more)" in warning


def test_a_file_that_is_not_toml_is_one_line_and_the_default_keys(tmp_path: Path) -> None:
    path = tmp_path / "keys.toml"
    path.write_bytes(b"help = \xff\n")
    keymap, warning = load_keymap(path)
    assert keymap == {}
    assert warning is not None and "\n" not in warning and "not UTF-8" in warning


async def test_a_remapped_key_drives_the_desk(fast_service: Service, home: Path) -> None:
    (home / "keys.toml").write_text('screen-arbitrage = "x"\nhelp = "f1"\n', encoding="utf-8")
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="live", with_feed=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(lambda: isinstance(app.screen, LiveScreen), pilot)
        await pilot.press("4")  # the default key no longer switches
        await pilot.pause(0.3)
        assert isinstance(app.screen, LiveScreen)
        await pilot.press("x")
        await wait_for(lambda: isinstance(app.screen, ArbitrageScreen), pilot)
        await pilot.press("f1")
        await wait_for(lambda: isinstance(app.screen, HelpModal), pilot)
        await wait_for(lambda: "Arbs" in screen_text(app), pilot)  # drawn on the next refresh
        shown = screen_text(app)
        assert re.search(r"│\s+x\s+Arbs\b", shown), "the help shows x for Arbs"
        assert not re.search(r"│\s+4\s+Arbs\b", shown)
        assert re.search(r"│\s+f1\s+Help\b", shown)


async def test_a_bad_keys_file_is_reported_and_the_desk_starts(
    fast_service: Service, home: Path
) -> None:
    (home / "keys.toml").write_text('screen-arbitrage = ["x"]\n', encoding="utf-8")
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="live", with_feed=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(lambda: len(app._notifications) > 0, pilot)
        messages = [notification.message for notification in app._notifications]
        assert len(messages) == 1 and "\n" not in messages[0], messages
        assert "'screen-arbitrage' must be a key name" in messages[0]
        await pilot.press("4")  # the default keys apply
        await wait_for(lambda: isinstance(app.screen, ArbitrageScreen), pilot)


def test_a_key_textual_cannot_fire_is_named_and_the_default_kept(tmp_path: Path) -> None:
    path = tmp_path / "keys.toml"
    path.write_text('quit = "ctrl+!!bad"\nhelp = "ctrl+f1, slash, ctrl++"\n', encoding="utf-8")
    keymap, warning = load_keymap(path)
    assert keymap == {"help": "ctrl+f1,slash,ctrl++"}  # no entry for quit: its default stays
    assert warning is not None and "\n" not in warning
    assert "'quit' must be a key name" in warning and "ctrl+!!bad" in warning
    assert "default keys stay" in warning


def test_key_names_follow_textual() -> None:
    assert all(is_key(key) for key in ("q", "S", "?", "f12", "question_mark", "shift+tab", "+"))
    assert not any(is_key(key) for key in ("ctrl+!!bad", "foo+q", "ctrl+", "!!", "f99", "a b"))


async def test_a_bad_quit_key_is_named_and_q_still_quits(fast_service: Service, home: Path) -> None:
    (home / "keys.toml").write_text('quit = "ctrl+!!bad"\n', encoding="utf-8")
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="live", with_feed=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(lambda: len(app._notifications) > 0, pilot)
        messages = [notification.message for notification in app._notifications]
        assert len(messages) == 1 and "'quit' must be a key name" in messages[0], messages
        await wait_for(lambda: isinstance(app.screen, LiveScreen), pilot)
        await pilot.press("q")
        await wait_for(lambda: not app.is_running, pilot)
