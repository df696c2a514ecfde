"""The command line: one line and exit status 2 for bad input, and --help that tells everything."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def run(*args: str, home: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != "ODDSTUI_API_KEY"}
    environment.update(ODDSTUI_HOME=str(home), **env)
    return subprocess.run(
        [sys.executable, "-m", "oddstui", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=environment,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (("--speed", "fast"), "--speed"),
        (("--seed", "-1"), "--seed"),
        (("--bogus",), "--bogus"),
        (("--base-url", "ftp://example"), "--base-url"),
        (("serve", "--port", "70000"), "--port"),
        (("serve", "--updates-per-second", "0"), "--updates-per-second"),
        (("odds", "abc"), "EVENT_ID"),
    ],
)
def test_bad_flags_are_one_line_and_exit_2(
    args: tuple[str, ...], named: str, tmp_path: Path
) -> None:
    result = run(*args, home=tmp_path)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and named in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("line", ["kelly_fraction = 3", "kelly_cap = 0", "kelly_cap = 1.5"])
def test_a_bad_config_value_is_named_and_exits_2(tmp_path: Path, line: str) -> None:
    (tmp_path / "config.toml").write_text(line + "\n")
    result = run(home=tmp_path)
    assert result.returncode == 2
    named = line.split(" = ")[0]
    assert result.stderr.count("\n") == 1 and f"'{named}'" in result.stderr
    assert (tmp_path / "config.toml").exists()


def test_a_base_url_without_a_key_is_refused(tmp_path: Path) -> None:
    result = run("--base-url", "http://127.0.0.1:9/v3", home=tmp_path)
    assert result.returncode == 2
    assert "no API key" in result.stderr and "ODDSTUI_API_KEY" in result.stderr


def test_help_lists_flags_environment_and_paths(tmp_path: Path) -> None:
    result = run("--help", home=tmp_path)
    assert result.returncode == 0
    for text in ("--base-url", "--demo", "--speed", "ODDSTUI_API_KEY", "NO_COLOR", "serve"):
        assert text in result.stdout
    assert str(tmp_path / "config.toml") in result.stdout


def test_a_config_with_bad_bytes_is_one_line_and_exit_2_for_a_script(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_bytes(b'x = "a\n\xff')  # issue 15's reproduction
    result = run("odds", "5", "--base-url", "http://127.0.0.1:9/v3", home=tmp_path)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "not UTF-8" in result.stderr
    assert "Traceback" not in result.stderr
