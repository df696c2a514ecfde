"""`oddstui serve` as a process: the ready line, clean stops, and bad accounts files."""

from __future__ import annotations

import signal
import socket
import subprocess
from pathlib import Path

import httpx
import pytest

from tests.service.conftest import (
    READY,
    serve_command,
    start_service,
    stop_service,
    stop_service_process,
)


def run_serve(*args: str, timeout: float = 20.0) -> subprocess.CompletedProcess[str]:
    return subprocess.run(serve_command(*args), capture_output=True, text=True, timeout=timeout)


def test_ready_line_is_the_only_stdout_and_sigterm_exits_zero(tmp_path: Path) -> None:
    service = start_service(tmp_path, accounts=False)
    assert READY.match(service.ready_line)
    assert service.host == "127.0.0.1" and service.port > 0
    response = httpx.get(service.url("/sports"), timeout=10)
    assert response.status_code == 200
    # the demo account exists without an accounts file
    selected = httpx.get(service.url("/bookmakers/selected"), params={"apiKey": "demo"})
    assert selected.status_code == 200
    assert 8 <= selected.json()["count"] <= 16
    for path in ("/sports", "/events/live?apiKey=demo", "/nope"):
        httpx.get(service.url(path), timeout=10)
    service.process.send_signal(signal.SIGTERM)
    assert service.process.wait(15) == 0
    assert service.process.stdout is not None
    assert service.process.stdout.read() == b"", "nothing after the ready line (no access log)"
    stop_service(service)
    assert service.stderr() == "", "a quiet run writes nothing on stderr"


def test_sigint_exits_zero(tmp_path: Path) -> None:
    service = start_service(tmp_path)
    service.process.send_signal(signal.SIGINT)
    assert service.process.wait(15) == 0
    stop_service_process(service.process)
    assert "Traceback" not in service.stderr()


def _one_line_exit_2(result: subprocess.CompletedProcess[str], *needles: str) -> str:
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert needles
    for needle in needles:
        assert needle in lines[0]
    return lines[0]


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("[[account]\nkey = 1", "not valid TOML"),
        ('[[account]]\nkey = "a"\nplan = "gold"\n', "plan"),
        ('[[account]]\nkey = "a"\nfeed = "yes"\n', "feed"),
        ('[[account]]\nkey = "a"\nrequests_per_hour = -5\n', "requests_per_hour"),
        ('[[account]]\nkey = "a"\nrequests_per_hour = true\n', "requests_per_hour"),
        ('[[account]]\nkey = "a"\nhour_seconds = 0\n', "hour_seconds must be an integer from 1"),
        ('[[account]]\nkey = "a"\nhour_seconds = 7200\n', "hour_seconds"),
        ('[[account]]\nkey = "a"\ncolour = "red"\n', "unknown field 'colour'"),
        ('[[account]]\nplan = "paid"\n', "key"),
        ('[[account]]\nkey = ""\n', "key"),
        ('[[account]]\nkey = "a"\nbookmakers = "Bet365"\n', "bookmakers"),
        ('[[account]]\nkey = "k-secret-1"\n[[account]]\nkey = "k-secret-1"\n', "duplicate key"),
        ("", "no accounts"),
        ('[[account]]\nkey = "a"\n[extra]\nx = 1\n', "unknown top-level key"),
        (
            '[[account]]\nkey = "a"\nplan = "free"\nbookmakers = ["Bet365", "Pinnacle", "SingBet"]',
            "a free plan selects at most 2 bookmakers",
        ),
    ],
)
def test_bad_accounts_file_exits_2_with_one_line(
    tmp_path: Path, content: str, problem: str
) -> None:
    path = tmp_path / "accounts.toml"
    path.write_text(content)
    line = _one_line_exit_2(run_serve("--port", "0", "--accounts", str(path)), str(path), problem)
    assert "k-secret-1" not in line  # keys are secrets, even in errors


def test_missing_accounts_file_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "nope.toml"
    _one_line_exit_2(run_serve("--port", "0", "--accounts", str(path)), str(path), "no such file")


def test_accounts_file_that_is_not_utf8_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "accounts.toml"
    path.write_bytes(b'[[account]]\nkey = "\xff\xfe"\n')
    _one_line_exit_2(run_serve("--port", "0", "--accounts", str(path)), str(path))


def test_unknown_bookmaker_in_accounts_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "accounts.toml"
    path.write_text('[[account]]\nkey = "a"\nbookmakers = ["Bet365", "NoSuchBook"]\n')
    _one_line_exit_2(run_serve("--port", "0", "--accounts", str(path)), str(path), "NoSuchBook")


def test_port_in_use_exits_2_naming_the_flag() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        _one_line_exit_2(run_serve("--port", str(port)), "--port")


@pytest.mark.parametrize(
    ("flag", "value"),
    [
        ("--port", "70000"),
        ("--speed", "0"),
        ("--bookmakers", "x"),
        ("--updates-per-second", "-1"),
        ("--max-connections", "0"),
    ],
)
def test_bad_flag_exits_2_naming_the_flag(flag: str, value: str) -> None:
    _one_line_exit_2(run_serve(flag, value), flag)
