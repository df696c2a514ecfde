"""Batch commands on bad input: one line on stderr and exit 2, whether the flag is malformed
(refused before the built-in service starts) or names an event, market, bookmaker or sport the
service does not know (refused by the service)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from oddstui.batch import BUILT_IN_NOTE


def run(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != "ODDSTUI_API_KEY"}
    environment["ODDSTUI_HOME"] = str(home)
    return subprocess.run(
        [sys.executable, "-m", "oddstui", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=environment,
        stdin=subprocess.DEVNULL,
    )


def error_lines(result: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in result.stderr.splitlines() if line != BUILT_IN_NOTE]


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (("odds", "abc"), "EVENT_ID"),
        (("odds", "0"), "EVENT_ID"),
        (("movements", "live", "--bookmaker", "Pinnacle", "--line", "two"), "--line"),
        (("dropping", "--markets", "ML,,Totals"), "--markets"),
        (("arbs", "--bookmakers", "Bet365,"), "--bookmakers"),
        (("value", "--bookmaker", "A,B"), "bookmaker"),
        (("odds", "12", "--sport", "football"), "--sport"),
        (("live", "--seed", "x"), "--seed"),
    ],
)
def test_a_malformed_flag_is_refused_before_the_service_starts(
    args: tuple[str, ...], named: str, tmp_path: Path
) -> None:
    result = run(*args, home=tmp_path)
    assert result.returncode == 2, result.stderr
    assert BUILT_IN_NOTE not in result.stderr  # no service was started
    assert result.stderr.count("\n") == 1 and named in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (("odds", "1"), "no event"),
        (("value", "--bookmaker", "NoSuchBook"), "NoSuchBook"),
        (("live", "--sport", "no-such-sport"), "no-such-sport"),
        (("movements", "live", "--bookmaker", "Pinnacle", "--market", "NoSuchMarket"), "market"),
    ],
)
def test_what_the_service_does_not_know_exits_2_in_one_line(
    args: tuple[str, ...], named: str, tmp_path: Path
) -> None:
    result = run(*args, home=tmp_path)
    assert result.returncode == 2, result.stderr
    lines = error_lines(result)
    assert len(lines) == 1 and named in lines[0], result.stderr
    assert "Traceback" not in result.stderr
