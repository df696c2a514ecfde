"""The layer contract in pyproject.toml (run by `lint-imports` in CI) catches what it promises:
each check here puts one wrong import into a copy of the package, or takes one line out of a
copy of the contract, and runs the real `lint-imports` on it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import tomli_w

ROOT = Path(__file__).resolve().parents[1]
LINT = [
    sys.executable,
    "-c",
    "import sys; from importlinter.cli import lint_imports_command; "
    "sys.exit(lint_imports_command())",
]


def _contract() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    copy = tmp_path_factory.mktemp("tree")
    shutil.copytree(ROOT / "oddstui", copy / "oddstui", ignore=shutil.ignore_patterns("*.pyc"))
    return copy


def lint(tree: Path, contract: dict, wrong: tuple[str, str] | None = None) -> tuple[int, str]:
    """Run lint-imports over `tree` (with `wrong` = (module file, import line) added)."""
    target = tree / "oddstui" / wrong[0] if wrong else None
    original = target.read_text() if target else ""
    config = tree / "contract.toml"
    config.write_text(tomli_w.dumps({"tool": {"importlinter": contract}}))
    try:
        if target:
            target.write_text(original + "\n" + wrong[1] + "\n")
        env = {**os.environ, "PYTHONPATH": str(tree)}
        done = subprocess.run(
            [*LINT, str(config), "--no-cache"],
            cwd=tree,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        if target:
            target.write_text(original)
    return done.returncode, done.stdout + done.stderr


def _without_layer(contract: dict, layer: str) -> dict:
    changed = {**contract, "contracts": [dict(c) for c in contract["contracts"]]}
    layers = next(c for c in changed["contracts"] if c["id"] == "layers")
    assert layer in layers["layers"]
    layers["layers"] = [line for line in layers["layers"] if line != layer]
    return changed


def test_the_package_keeps_the_real_contract(tree: Path) -> None:
    contract = _contract()
    status, out = lint(tree, contract)
    assert status == 0, out
    assert f"{len(contract['contracts'])} kept, 0 broken" in out


def test_an_upward_import_breaks_the_layers_unless_its_layer_line_is_gone(tree: Path) -> None:
    wrong = ("config.py", "import oddstui.api.errors")
    status, out = lint(tree, _contract(), wrong)
    assert status == 1
    assert "imports point downwards BROKEN" in out
    assert "oddstui.config -> oddstui.api.errors" in out
    bottom = "oddstui.config"
    status, out = lint(tree, _without_layer(_contract(), bottom), wrong)
    assert status == 0, out


def test_swapping_two_layers_breaks_the_real_code(tree: Path) -> None:
    contract = _contract()
    swapped = {**contract, "contracts": [dict(c) for c in contract["contracts"]]}
    layers = next(c for c in swapped["contracts"] if c["id"] == "layers")
    order = list(layers["layers"])
    book, api = order.index("oddstui.book"), order.index("oddstui.api")
    order[book], order[api] = order[api], order[book]
    layers["layers"] = order
    status, out = lint(tree, swapped)
    assert status == 1
    assert "imports point downwards BROKEN" in out


@pytest.mark.parametrize(
    ("wrong", "broken"),
    [
        (("server/http.py", "import textual.widgets"), "textual only inside tui BROKEN"),
        (("cli.py", "import textual.app"), "entry points reach textual only through tui BROKEN"),
        (("book/probability.py", "import asyncio"), "book is pure: no I/O, no asyncio"),
        (
            ("relay/render.py", "import oddstui.service.world.model"),
            "the server core and the relay load no world (nor Pillow) BROKEN",
        ),
        (("server/errors.py", "import oddstui.service.app"), "imports point downwards BROKEN"),
        (
            ("tui/boards/ticket/stakes.py", "import oddstui.service.embedded"),
            "imports point downwards BROKEN",
        ),
        (("api/errors.py", "import oddstui.api.rest"), "no import cycles between sibling"),
        (
            ("tui/kit/prices.py", "import oddstui.tui.boards.board_cells"),
            "tui: the app on top, features side by side over kit, desk at the bottom BROKEN",
        ),
        (
            ("tui/boards/board_cells.py", "import oddstui.tui.boards.ticket.stakes"),
            "tui boards: each board over the ticket over the shared board parts BROKEN",
        ),
    ],
)
def test_each_contract_catches_its_wrong_import(
    tree: Path, wrong: tuple[str, str], broken: str
) -> None:
    status, out = lint(tree, _contract(), wrong)
    assert status == 1
    assert broken in out
