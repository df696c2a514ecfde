"""The README's batch examples run as printed, against the built-in world each command starts
itself (no key, a fresh data folder): exit 0 and sensible output, at any time of day."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
SECTION = "## The SDK and batch commands"


def readme_examples() -> list[str]:
    """Every `oddstui ...` line of the section's shell blocks."""
    text = README.read_text(encoding="utf-8")
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, flags=re.DOTALL)
    return [
        line.strip()
        for block in blocks
        for line in block.splitlines()
        if line.strip().startswith("oddstui ")
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
