"""The mutation gate: each mutant of the money maths in `.ci/mutants.toml` must be caught.

    python .ci/mutants.py            # every mutant, two at a time
    python .ci/mutants.py --list     # what each mutant means, without running

A mutant is one small change to one line of `book/`, `betlog/` or `backtest/` that a trader
would lose money by (the away spread on the home line, commission ignored, ...). Each is applied
to a copy of the package (the tree is never touched) and the tests it names run against the copy
with `-x`; the mutant is caught when they fail. The same tests run first on the unchanged copy
and must pass, so that a mutant is never "caught" by a test that fails anyway.

Exits 0 when every mutant is caught, 1 when one survived, 2 when a mutant's original text is
gone from its file or stands there more than once (update `.ci/mutants.toml`).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIST = ROOT / ".ci" / "mutants.toml"
PYTEST = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:xdist", "-p", "no:cacheprovider",
          "-o", "addopts=", "--timeout=120"]  # fmt: skip


@dataclass(frozen=True)
class Mutant:
    name: str
    means: str
    file: str
    original: str
    mutant: str
    tests: tuple[str, ...]


def load(path: Path = LIST) -> list[Mutant]:
    entries = tomllib.loads(path.read_text())["mutant"]
    return [
        Mutant(e["name"], e["means"], e["file"], e["original"], e["mutant"], tuple(e["tests"]))
        for e in entries
    ]


def missing_targets(mutants: list[Mutant]) -> list[str]:
    """A line per mutant whose original text is not in its file exactly once."""
    problems = []
    for mutant in mutants:
        count = (ROOT / mutant.file).read_text().count(mutant.original)
        if count != 1:
            where = "is gone from" if count == 0 else f"stands {count} times in"
            problems.append(f"{mutant.name}: its original text {where} {mutant.file}")
    return problems


def copy_tree(folder: Path) -> None:
    for part in ("oddstui", "tests", "styles", "pyproject.toml"):
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, folder / part, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, folder / part)


def run_tests(folder: Path, tests: tuple[str, ...]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(folder), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([*PYTEST, *tests], cwd=folder, env=env, capture_output=True, text=True)


def last_line(run: subprocess.CompletedProcess[str]) -> str:
    lines = [line for line in run.stdout.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "(no output)"


def check_share(mutants: list[Mutant]) -> list[tuple[Mutant, bool, str]]:
    """Apply each mutant in turn to one private copy; (mutant, caught, pytest's last line)."""
    results = []
    with tempfile.TemporaryDirectory(prefix="oddstui-mutants-") as name:
        folder = Path(name)
        copy_tree(folder)
        for tests in sorted({m.tests for m in mutants}):
            baseline = run_tests(folder, tests)
            if baseline.returncode != 0:
                failing = " ".join(tests)
                raise SystemExit(f"the unmutated tests fail: {failing}: {last_line(baseline)}")
        for mutant in mutants:
            target = folder / mutant.file
            text = target.read_text()
            target.write_text(text.replace(mutant.original, mutant.mutant))
            run = run_tests(folder, mutant.tests)
            target.write_text(text)
            results.append((mutant, run.returncode != 0, last_line(run)))
            print(f"{mutant.name}: {'caught' if results[-1][1] else 'SURVIVED'}", flush=True)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="say what each mutant means and stop")
    parser.add_argument("--workers", type=int, default=2, help="copies run side by side")
    args = parser.parse_args(argv)
    mutants = load()
    if args.list:
        for mutant in mutants:
            print(f"{mutant.name} ({mutant.file}): {mutant.means}")
        return 0
    problems = missing_targets(mutants)
    if problems:
        print("\n".join(problems))
        return 2
    started = time.monotonic()
    shares = [mutants[i :: args.workers] for i in range(args.workers)]
    with ThreadPoolExecutor(args.workers) as pool:
        results = [r for share in pool.map(check_share, shares) for r in share]
    survivors = [(m, tail) for m, caught, tail in results if not caught]
    for mutant, tail in survivors:
        print(f"SURVIVED {mutant.name} ({mutant.file}): {mutant.means} [{tail}]")
    seconds = time.monotonic() - started
    print(f"mutation gate: {len(results) - len(survivors)} caught, {len(survivors)} survived "
          f"of {len(results)} mutants in {seconds:.0f} s")  # fmt: skip
    return 1 if survivors else 0


if __name__ == "__main__":
    raise SystemExit(main())
