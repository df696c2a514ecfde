"""The real desk in a terminal starts whatever is in its files, and a crash never exits 0."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.tui.conftest import Service, start_service
from tests.tui.desk_pty import DeskInPty

pytestmark = pytest.mark.slow  # handed out first (tests/conftest.py)

BAD_BYTES = b'x = "a\n\xff'  # the reproduction from issue 15: invalid UTF-8


@pytest.fixture(scope="module")
def service() -> Iterator[Service]:
    running = start_service("--seed", "5")
    yield running
    running.stop()


@pytest.mark.parametrize("name", ["config.toml", "watchlist.toml", "alerts.toml"])
def test_a_file_with_bad_bytes_is_kept_as_bak_and_the_desk_starts(
    service: Service, home: Path, name: str
) -> None:
    (home / name).write_bytes(BAD_BYTES)
    desk = DeskInPty(home, "--base-url", service.base_url)
    try:
        assert desk.read_until("req left"), desk.text[-2000:]  # the status bar: the desk is up
        assert desk.read_until(f"{name}.bak"), desk.text[-2000:]
    finally:
        status = desk.finish()
    assert status == 0, desk.text[-2000:]
    assert "Traceback" not in desk.text
    assert (home / f"{name}.bak").read_bytes() == BAD_BYTES
    assert not (home / name).exists()


def test_every_file_a_directory_still_starts_the_desk(service: Service, home: Path) -> None:
    for name in ("config.toml", "watchlist.toml", "alerts.toml"):
        (home / name).mkdir()
    desk = DeskInPty(home, "--base-url", service.base_url)
    try:
        assert desk.read_until("req left"), desk.text[-2000:]
        assert desk.read_until("cannot be read"), desk.text[-2000:]
    finally:
        status = desk.finish()
    assert status == 0, desk.text[-2000:]
    assert "Traceback" not in desk.text
    assert all((home / name).is_dir() for name in ("config.toml", "watchlist.toml", "alerts.toml"))


CRASHING_DESK = """
import sys

import oddstui.tui.app as app_module

mounted = app_module.OddsApp.on_mount


def on_mount(self):
    mounted(self)
    self.call_later(lambda: 1 / 0)  # a bug in the desk, once it is up


app_module.OddsApp.on_mount = on_mount
from oddstui.cli import main

sys.exit(main(sys.argv[1:]))
"""


def test_a_crashed_desk_never_exits_0(service: Service, home: Path, tmp_path: Path) -> None:
    # Textual shows its crash report and returns None from run(); the desk used to exit 0.
    script = tmp_path / "crashing_desk.py"
    script.write_text(CRASHING_DESK)
    desk = DeskInPty(home, "--base-url", service.base_url, script=script)
    try:
        assert desk.read_until("ZeroDivisionError", timeout=30), desk.text[-2000:]
    finally:
        status = desk.finish()
    assert status == 1
