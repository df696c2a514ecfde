"""`oddstui relay`'s bad input: one line naming the flag, exit status 2, the key never shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.relay.relaying import desk_accounts
from tests.test_cli import run

KEY = "k-upstream-secret-93f1"


@pytest.mark.parametrize(
    ("flags", "named"),
    [
        ((), "--accounts"),
        (("--markets", ",".join(f"M{n}" for n in range(21))), "--markets"),
        (("--markets", " , "), "--markets"),
        (("--upstream", "ftp://example/v3"), "--upstream"),
        (("--nats", "nats://127.0.0.1:1", "--from-nats", "nats://127.0.0.1:1"), "--nats"),
        (("--from-nats", "embedded"), "--from-nats"),
        (("--replay-window", "0"), "--replay-window"),
        (("--port", "-1"), "--port"),
        (("--stream", "odds.live"), "--stream"),
        (("--catalog-every", "-5"), "--catalog-every"),
        (("--max-connections", "many"), "--max-connections"),
    ],
)
def test_bad_relay_flags_are_one_line_and_exit_2(
    flags: tuple[str, ...], named: str, tmp_path: Path
) -> None:
    accounts = () if named == "--accounts" else ("--accounts", str(desk_accounts(tmp_path)))
    done = run("relay", *accounts, *flags, home=tmp_path, ODDSTUI_API_KEY=KEY)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and named in lines[0], done.stderr
    assert KEY not in done.stderr and done.stdout == ""


def test_the_relay_needs_an_upstream_key_from_the_environment_or_config(tmp_path: Path) -> None:
    done = run("relay", "--accounts", str(desk_accounts(tmp_path)), home=tmp_path)
    assert done.returncode == 2
    assert "ODDSTUI_API_KEY" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_a_bad_accounts_file_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "accounts.toml"
    bad.write_text("[[account]]\nkey = \n")
    done = run("relay", "--accounts", str(bad), home=tmp_path, ODDSTUI_API_KEY=KEY)
    assert done.returncode == 2 and str(bad) in done.stderr


def test_importing_the_relay_loads_no_world_and_no_pillow() -> None:
    """The relay serves through the server core; the world (and the Pillow its crests need)
    stays out of its process."""
    import json
    import subprocess
    import sys

    code = (
        "import json, sys, oddstui.relay.server, oddstui.relay.app, oddstui.relay.rest,"
        " oddstui.relay.relay, oddstui.relay.sources;"
        "print(json.dumps(sorted(sys.modules)))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    loaded = json.loads(result.stdout)
    assert "oddstui.server.feed.core" in loaded and "oddstui.server.routes" in loaded
    unwanted = [
        name
        for name in loaded
        if name.startswith(("oddstui.service", "oddstui.tui", "textual"))
        or name == "PIL"
        or name.startswith("PIL.")
    ]
    assert unwanted == []
