"""The TUI sits on top: it never imports the service or the CLI, and nothing below imports it."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import oddstui.tui

TUI = Path(oddstui.tui.__file__).parent


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_tui_never_imports_the_service_or_the_cli() -> None:
    offenders = {
        f"{path.relative_to(TUI)}: {name}"
        for path in TUI.rglob("*.py")
        for name in imported(path)
        if name.startswith(("oddstui.service", "oddstui.cli", "oddstui.batch"))
    }
    assert not offenders


def test_config_and_api_load_without_textual() -> None:
    code = (
        "import sys, oddstui.config, oddstui.api.rest, oddstui.api.feed, oddstui.book.oddsbook;"
        "print('textual' in sys.modules, 'oddstui.tui' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.split() == ["False", "False"]
