"""Every benchmark still imports: a benchmark is run by hand, so a moved name would otherwise
be found only by the next person to measure."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
NAMES = sorted(path.stem for path in BENCHMARKS.glob("*.py"))


def test_there_are_benchmarks() -> None:
    assert "backtest" in NAMES and len(NAMES) > 10


@pytest.mark.parametrize("name", NAMES)
def test_the_benchmark_imports(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    module = importlib.import_module(name)
    assert module.__doc__, f"benchmarks/{name}.py says what it measures"
