"""The house's layout stays what issue 19 made it: small modules with one job, and a small root
of `tui/` over its feature packages."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "oddstui"
MAX_LINES = 400
MAX_TUI_ROOT_MODULES = 8


def test_no_module_is_over_400_lines() -> None:
    sizes = {
        path: len(path.read_text(encoding="utf-8").splitlines()) for path in PACKAGE.rglob("*.py")
    }
    assert len(sizes) > 100
    over = {str(path.relative_to(PACKAGE)): n for path, n in sizes.items() if n > MAX_LINES}
    assert over == {}


def test_the_tui_root_holds_at_most_eight_modules() -> None:
    root = [p.name for p in (PACKAGE / "tui").glob("*.py") if p.name != "__init__.py"]
    assert 0 < len(root) <= MAX_TUI_ROOT_MODULES, sorted(root)
