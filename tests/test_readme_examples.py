"""Every `oddstui` command the README and docs/ print runs as printed.

The batch commands (docs/batch.md) run against the built-in world each starts itself (no key, a
fresh data folder): exit 0 and sensible output, at any time of day. The others (the desk, serve,
relay, record, replay, backtest...) run until stopped or need a recording, so each is checked by
the CLI's own parser: its command, flags and values are all accepted as printed.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from oddstui.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BATCH = ROOT / "docs" / "batch.md"
BATCH_COMMANDS = {"live", "odds", "movements", "arbs", "value", "dropping"}


def command_lines(page: Path) -> list[str]:
    """Every `oddstui ...` line of the page's code blocks, continuations joined, environment
    settings and comments left out."""
    blocks = re.findall(r"```[a-z]*\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.DOTALL)
    lines = []
    for block in blocks:
        for line in block.replace("\\\n", " ").splitlines():
            if not re.match(r"\s*([A-Z_]+=\S*\s+)*oddstui(\s|$)", line):
                continue
            words = shlex.split(line, comments=True)
            while words and re.fullmatch(r"[A-Z_]+=\S*", words[0]):
                words = words[1:]
            ends = [i for i, word in enumerate(words) if word in ("|", "&&", ";", "&")
                    or word.startswith((">", "2>"))]  # fmt: skip
            words = words[: ends[0]] if ends else words  # what the shell hands oddstui
            if any(word.startswith("[") for word in words):
                continue  # a usage synopsis (`[--json]`), not a command
            if words and words[0] == "oddstui":
                lines.append(shlex.join(words))
    return lines


def readme_examples() -> list[str]:
    """The batch examples: every batch command of docs/batch.md."""
    return [line for line in command_lines(BATCH) if line.split()[1] in BATCH_COMMANDS]


def other_commands() -> list[tuple[str, str]]:
    return [
        (page.relative_to(ROOT).as_posix(), line)
        for page in PAGES
        for line in command_lines(page)
        if len(line.split()) < 2 or line.split()[1] not in BATCH_COMMANDS
    ]


EXAMPLES = readme_examples()


def test_the_readme_has_batch_examples() -> None:
    assert len(EXAMPLES) >= 5
    commands = {line.split()[1] for line in EXAMPLES}
    assert {"live", "odds", "movements", "arbs", "value", "dropping"} <= commands
    assert not any(re.search(r"\b\d{6,}\b", line) for line in EXAMPLES), "no hard-coded ids"


@pytest.mark.parametrize("line", EXAMPLES)
def test_a_readme_example_runs_as_printed(line: str, tmp_path: Path) -> None:
    argv = shlex.split(line)
    assert argv[0] == "oddstui"
    environment = {k: v for k, v in os.environ.items() if k != "ODDSTUI_API_KEY"}
    environment["ODDSTUI_HOME"] = str(tmp_path)
    result = subprocess.run(
        [sys.executable, "-m", "oddstui", *argv[1:]],
        capture_output=True,
        text=True,
        timeout=120,
        env=environment,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 0, result.stderr
    assert "built-in service" in result.stderr  # it said which service answered
    out = result.stdout.strip()
    assert out and "Traceback" not in result.stderr
    if "--json" in argv:
        data = json.loads(out)
        assert data, f"{line}: an empty answer"
    else:
        lines = out.splitlines()
        assert len(lines) >= 2, out  # a header and at least one row
    if argv[1] == "live":
        rows = json.loads(out) if "--json" in argv else out.splitlines()[1:]
        assert rows
        if "--sport" in argv:
            assert all(row["sport"]["slug"] == argv[argv.index("--sport") + 1] for row in rows)
    if argv[1] in ("odds", "movements"):
        assert re.search(r"\d\.\d", out), out  # prices


OTHERS = other_commands()


def test_the_pages_print_other_commands() -> None:
    named = {line.split()[1] for _, line in OTHERS if len(line.split()) > 1}
    assert {"serve", "relay", "record", "replay", "backtest", "bets"} <= named, named


@pytest.mark.parametrize(("page", "line"), OTHERS)
def test_a_printed_command_parses_as_printed(page: str, line: str) -> None:
    try:
        build_parser().parse_args(shlex.split(line)[1:])
    except SystemExit as stopped:
        pytest.fail(f"{page}: `{line}` is refused by the CLI (exit {stopped.code})")
