"""book/ is pure: no I/O, no asyncio, no textual; it imports only api models and itself."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import oddstui.book

BOOK = Path(oddstui.book.__file__).parent
ALLOWED_STDLIB = {
    "__future__",
    "array",
    "bisect",
    "functools",
    "collections",
    "dataclasses",
    "re",
    "datetime",
    "decimal",
    "fractions",
    "itertools",
    "math",
    "msgspec",  # records (structs) only: the models' own record type
    "time",
    "typing",
}
ALLOWED_OURS = ("oddstui.book", "oddstui.api.models", "oddstui.api.messages")


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_book_imports_only_pure_modules() -> None:
    files = sorted(BOOK.glob("*.py"))
    assert len(files) >= 10
    for path in files:
        for name in imported_modules(path):
            if name.startswith("oddstui"):
                assert name.startswith(ALLOWED_OURS), f"{path.name} imports {name}"
            else:
                assert name.split(".")[0] in ALLOWED_STDLIB, f"{path.name} imports {name}"


def test_importing_the_book_does_not_load_textual() -> None:
    code = (
        "import sys, oddstui.book.oddsbook, oddstui.book.views, oddstui.book.stakes\n"
        "print('textual' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
